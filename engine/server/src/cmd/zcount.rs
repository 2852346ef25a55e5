//! ZCOUNT key min max: how many members have a score in the range (Celery's chord counts
//! its finished parts with it).

use super::zrangebyscore::parse_score_bound;
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let min = parse_score_bound(args.get(2))?;
    let max = parse_score_bound(args.get(3))?;
    let count = ctx.db().read(args.get(1), |entry| match entry.map(|e| &e.value) {
        None => Ok(0),
        Some(Value::ZSet(z)) => Ok(z.range_by_score(min, max).count()),
        Some(_) => Err(CmdError::WrongType),
    })??;
    ctx.reply.int(count as i64);
    Ok(())
}
