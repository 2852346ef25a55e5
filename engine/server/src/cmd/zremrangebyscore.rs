//! ZREMRANGEBYSCORE key min max: removes the members whose score is in the range; replies
//! with how many. Also the removal the other ZREMRANGEBY* commands share.

use super::zrangebyscore::{parse_score_bound, select, Query, Range};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Delta;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let range = Range::Score(parse_score_bound(args.get(2))?, parse_score_bound(args.get(3))?);
    remove_range(ctx, args.get(1), range)
}

/// Removes the members `range` selects from the sorted set at `key` (a set left empty is
/// deleted); replies with the count.
pub fn remove_range(ctx: &mut Ctx<'_>, key: &[u8], range: Range) -> CmdResult {
    let q = Query { range, reverse: false, limit: None, with_scores: false };
    let (removed, lsn) = ctx.db().update(key, |slot| -> Result<usize, CmdError> {
        // Select first and change only when something goes, so a no-op logs nothing.
        let picked = match slot.get().map(|e| &e.value) {
            None => return Ok(0),
            Some(basalt_storage::Value::ZSet(z)) => select(z, &q),
            Some(_) => return Err(CmdError::WrongType),
        };
        if picked.is_empty() {
            return Ok(0);
        }
        for (member, _) in &picked {
            slot.apply(Delta::ZRem(member.clone()));
        }
        Ok(picked.len())
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(removed? as i64);
    Ok(())
}
