//! ZLEXCOUNT key min max: how many members fall in a lexicographical range (ZRANGE BYLEX's
//! selection, counted).

use super::zrangebyscore::{parse_lex_bound, select, Query, Range};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let range = Range::Lex(parse_lex_bound(args.get(2))?, parse_lex_bound(args.get(3))?);
    let q = Query { range, reverse: false, limit: None, with_scores: false };
    let count = ctx.db().read(args.get(1), |entry| match entry.map(|e| &e.value) {
        None => Ok(0),
        Some(Value::ZSet(z)) => Ok(select(z, &q).len()),
        Some(_) => Err(CmdError::WrongType),
    })??;
    ctx.reply.int(count as i64);
    Ok(())
}
