//! ZRANK key member: the member's 0-based position by ascending score, or null.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    rank(ctx, args, false)
}

/// ZRANK and ZREVRANK (`reverse`: counted from the highest score).
pub fn rank(ctx: &mut Ctx<'_>, args: Args<'_>, reverse: bool) -> CmdResult {
    let member = args.get(2);
    let rank = ctx.db().read(args.get(1), |entry| match entry.map(|e| &e.value) {
        None => Ok(None),
        Some(Value::ZSet(z)) => Ok(z.score(member).map(|_| {
            let pos = z.iter().position(|(m, _)| m.as_ref() == member).unwrap_or(0);
            if reverse { z.len() - 1 - pos } else { pos }
        })),
        Some(_) => Err(CmdError::WrongType),
    })??;
    match rank {
        Some(r) => ctx.reply.int(r as i64),
        None => ctx.reply.null(),
    }
    Ok(())
}
