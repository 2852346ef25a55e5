//! ZRANGE key start stop [BYSCORE | BYLEX] [REV] [LIMIT offset count] [WITHSCORES]; also the
//! argument handling every range command shares (Redis' `zrangeGenericCommand`): ZREVRANGE,
//! Z[REV]RANGEBYSCORE, Z[REV]RANGEBYLEX and ZRANGESTORE fix the range kind or direction and
//! parse the rest alike.

use super::zrangebyscore::{parse_lex_bound, parse_limit, parse_score_bound, select, write_members, Query, Range};
use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Entry, Value, ZSet};

/// The kind of range, when the command fixes it (None: ZRANGE, chosen by BYSCORE/BYLEX).
#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    Rank,
    Score,
    Lex,
}

/// Runs a range command whose source key is `args[first]` (followed by the two bounds);
/// `store` is the destination key for ZRANGESTORE.
pub fn generic(ctx: &mut Ctx<'_>, args: Args<'_>, first: usize, store: Option<&[u8]>, kind: Option<Kind>, reverse: Option<bool>) -> CmdResult {
    let (mut kind_opt, mut rev_opt) = (kind, reverse);
    let (mut with_scores, mut limit) = (false, None);
    let mut i = first + 3;
    while i < args.len() {
        let opt = args.get(i);
        if store.is_none() && is(opt, "withscores") {
            with_scores = true;
        } else if is(opt, "limit") && i + 2 < args.len() {
            limit = Some(parse_limit(&args, i)?);
            i += 2;
        } else if reverse.is_none() && is(opt, "rev") {
            rev_opt = Some(true);
        } else if kind.is_none() && is(opt, "bylex") {
            kind_opt = Some(Kind::Lex);
        } else if kind.is_none() && is(opt, "byscore") {
            kind_opt = Some(Kind::Score);
        } else {
            return Err(CmdError::Syntax);
        }
        i += 1;
    }
    let kind = kind_opt.unwrap_or(Kind::Rank);
    let reverse = rev_opt.unwrap_or(false);
    if limit.is_some() && kind == Kind::Rank {
        return Err(CmdError::msg("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX"));
    }
    if with_scores && kind == Kind::Lex {
        return Err(CmdError::msg("ERR syntax error, WITHSCORES not supported in combination with BYLEX"));
    }
    // Reversed score and lex ranges are given as max, min.
    let (lo, hi) = if reverse && kind != Kind::Rank { (args.get(first + 2), args.get(first + 1)) } else { (args.get(first + 1), args.get(first + 2)) };
    let range = match kind {
        Kind::Rank => Range::Index(arg_i64(lo)?, arg_i64(hi)?),
        Kind::Score => Range::Score(parse_score_bound(lo)?, parse_score_bound(hi)?),
        Kind::Lex => Range::Lex(parse_lex_bound(lo)?, parse_lex_bound(hi)?),
    };
    let q = Query { range, reverse, limit, with_scores };
    let source = args.get(first);
    match store {
        None => {
            let members = ctx.db().read(source, |entry| match entry.map(|e| &e.value) {
                None => Ok(Vec::new()),
                Some(Value::ZSet(z)) => Ok(select(z, &q)),
                Some(_) => Err(CmdError::WrongType),
            })??;
            write_members(ctx.reply, &members, q.with_scores);
        }
        Some(dest) => {
            let (stored, lsn) = ctx.db().batch(&[source, dest], |txn| -> Result<usize, CmdError> {
                let picked = match txn.get(source).map(|e| &e.value) {
                    None => Vec::new(),
                    Some(Value::ZSet(z)) => select(z, &q),
                    Some(_) => return Err(CmdError::WrongType),
                };
                let mut out = ZSet::new();
                for (member, score) in picked {
                    out.insert(member, score);
                }
                Ok(store_zset(txn, dest, out))
            })?;
            ctx.wrote(lsn);
            ctx.reply.int(stored? as i64);
        }
    }
    Ok(())
}

/// Replaces `dest` with `zset` (deletes it when empty), as the *STORE commands do; returns
/// the stored size.
pub fn store_zset(txn: &mut basalt_storage::Txn, dest: &[u8], zset: ZSet) -> usize {
    let len = zset.len();
    if len == 0 {
        txn.remove(dest);
    } else {
        txn.put(dest, Entry::new(Value::ZSet(Box::new(zset))));
    }
    len
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    generic(ctx, args, 1, None, None, None)
}
