//! XRANGE key start end [COUNT n] (and XREVRANGE key end start): entries between two ids,
//! `-`/`+` for the ends, `(` for an exclusive bound, an id without sequence as `ms-0` (start)
//! or `ms-max` (end).

use super::stream_util::{count_arg, interval_id, reply_entries};
use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Fields, StreamId, Value};

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    range(ctx, args, false)
}

/// XRANGE and XREVRANGE (`rev`: arguments end then start, newest first).
pub fn range(ctx: &mut Ctx<'_>, args: Args<'_>, rev: bool) -> CmdResult {
    let (start_arg, end_arg) = if rev { (args.get(3), args.get(2)) } else { (args.get(2), args.get(3)) };
    let (mut start, start_ex) = interval_id(start_arg, 0)?;
    if start_ex {
        start = start.next().ok_or_else(|| CmdError::msg("ERR invalid start ID for the interval"))?;
    }
    let (mut end, end_ex) = interval_id(end_arg, u64::MAX)?;
    if end_ex {
        end = end.prev().ok_or_else(|| CmdError::msg("ERR invalid end ID for the interval"))?;
    }
    let mut count: Option<u64> = None;
    let mut j = 4;
    while j < args.len() {
        if is(args.get(j), "count") && j + 1 < args.len() {
            count = Some(count_arg(args.get(j + 1))?);
            j += 2;
        } else {
            return Err(CmdError::Syntax);
        }
    }
    let entries = ctx.db().read(args.get(1), |e| -> Result<Option<Vec<(StreamId, Fields)>>, CmdError> {
        let s = match e.map(|e| &e.value) {
            None => return Ok(Some(Vec::new())),
            Some(Value::Stream(s)) => s,
            Some(_) => return Err(CmdError::WrongType),
        };
        if count == Some(0) {
            return Ok(None);
        }
        let limit = count.unwrap_or(u64::MAX) as usize;
        if start > end {
            return Ok(Some(Vec::new()));
        }
        let it = s.entries.range(start..=end);
        let picked = if rev { it.rev().take(limit).map(|(i, f)| (*i, f.clone())).collect() } else { it.take(limit).map(|(i, f)| (*i, f.clone())).collect() };
        Ok(Some(picked))
    })??;
    match entries {
        None => ctx.reply.null_array(),
        Some(entries) => reply_entries(ctx.reply, &entries),
    }
    Ok(())
}
