//! ZMSCORE key member [member ...]: each member's score, or null.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let scores = ctx.db().read(args.get(1), |entry| match entry.map(|e| &e.value) {
        None => Ok(vec![None; args.len() - 2]),
        Some(Value::ZSet(z)) => Ok(args.tail(2).iter().map(|m| z.score(m)).collect()),
        Some(_) => Err(CmdError::WrongType),
    })??;
    ctx.reply.array(scores.len());
    for score in scores {
        match score {
            Some(s) => ctx.reply.double(s),
            None => ctx.reply.null(),
        }
    }
    Ok(())
}
