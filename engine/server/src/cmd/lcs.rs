//! LCS key1 key2 [LEN] [IDX] [MINMATCHLEN len] [WITHMATCHLEN]: the longest common
//! subsequence of two strings (a missing key is ""), its length, or the matching ranges; the
//! dynamic-programming walk of Redis' `lcsCommand`, so ties resolve to the same answer.

use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::number::parse_i64;
use crate::resp::Args;
use basalt_storage::Value;
use bytes::Bytes;

/// The table is (len1+1)*(len2+1) u32s: refuse what would take more than this many bytes.
const MAX_TABLE_BYTES: u64 = 512 << 20;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let mut strings = Vec::with_capacity(2);
    for key in [args.get(1), args.get(2)] {
        let s = ctx.db().read(key, |entry| match entry.map(|e| &e.value) {
            None => Ok(Bytes::new()),
            Some(Value::Str(s)) => Ok(s.clone()),
            Some(_) => Err(CmdError::msg("ERR The specified keys must contain string values")),
        })??;
        strings.push(s);
    }
    let (mut idx, mut len_only, mut with_len, mut min_len) = (false, false, false, 0u32);
    let mut j = 3;
    while j < args.len() {
        let opt = args.get(j);
        if is(opt, "idx") {
            idx = true;
        } else if is(opt, "len") {
            len_only = true;
        } else if is(opt, "withmatchlen") {
            with_len = true;
        } else if is(opt, "minmatchlen") && j + 1 < args.len() {
            let n = parse_i64(args.get(j + 1)).ok_or(CmdError::NotInteger)?;
            min_len = n.clamp(0, u32::MAX as i64) as u32;
            j += 1;
        } else {
            return Err(CmdError::Syntax);
        }
        j += 1;
    }
    if idx && len_only {
        return Err(CmdError::msg("ERR If you want both the length and indexes, please just use IDX."));
    }
    let (a, b) = (&strings[0][..], &strings[1][..]);
    if (a.len() as u64 + 1) * (b.len() as u64 + 1) * 4 > MAX_TABLE_BYTES {
        return Err(CmdError::msg("ERR Insufficient memory, failed allocating transient memory for LCS"));
    }
    let w = b.len() + 1;
    let mut t = vec![0u32; (a.len() + 1) * w];
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            t[i * w + j] = if a[i - 1] == b[j - 1] { t[(i - 1) * w + j - 1] + 1 } else { t[(i - 1) * w + j].max(t[i * w + j - 1]) };
        }
    }
    let total = t[a.len() * w + b.len()];
    if len_only {
        ctx.reply.int(total as i64);
        return Ok(());
    }
    // Walk back from the end, collecting the subsequence and the ranges of contiguous matches.
    let mut result = vec![0u8; total as usize];
    let mut ranges: Vec<(u32, u32, u32, u32)> = Vec::new();
    let (alen, mut k) = (a.len() as u32, total);
    let (mut i, mut j) = (a.len() as u32, b.len() as u32);
    let (mut a_start, mut a_end, mut b_start, mut b_end) = (alen, 0u32, 0u32, 0u32);
    while i > 0 && j > 0 {
        let mut emit = false;
        if a[i as usize - 1] == b[j as usize - 1] {
            result[k as usize - 1] = a[i as usize - 1];
            if a_start == alen {
                (a_start, a_end, b_start, b_end) = (i - 1, i - 1, j - 1, j - 1);
            } else if a_start == i && b_start == j {
                a_start -= 1;
                b_start -= 1;
            } else {
                emit = true;
            }
            if a_start == 0 || b_start == 0 {
                emit = true;
            }
            k -= 1;
            i -= 1;
            j -= 1;
        } else {
            if t[(i as usize - 1) * w + j as usize] > t[i as usize * w + j as usize - 1] {
                i -= 1;
            } else {
                j -= 1;
            }
            if a_start != alen {
                emit = true;
            }
        }
        let match_len = a_end.wrapping_sub(a_start).wrapping_add(1);
        if emit {
            if min_len == 0 || match_len >= min_len {
                ranges.push((a_start, a_end, b_start, b_end));
            }
            a_start = alen;
        }
    }
    if !idx {
        ctx.reply.bulk(&result);
        return Ok(());
    }
    ctx.reply.map(2);
    ctx.reply.bulk(b"matches");
    ctx.reply.array(ranges.len());
    for (a0, a1, b0, b1) in ranges {
        ctx.reply.array(2 + with_len as usize);
        ctx.reply.array(2);
        ctx.reply.int(a0 as i64);
        ctx.reply.int(a1 as i64);
        ctx.reply.array(2);
        ctx.reply.int(b0 as i64);
        ctx.reply.int(b1 as i64);
        if with_len {
            ctx.reply.int((a1 - a0 + 1) as i64);
        }
    }
    ctx.reply.bulk(b"len");
    ctx.reply.int(total as i64);
    Ok(())
}
