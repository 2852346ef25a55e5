//! ZSCORE key member: a double in RESP3, a bulk string in RESP2.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let score = ctx.db().read(args.get(1), |entry| match entry.map(|e| &e.value) {
        None => Ok(None),
        Some(Value::ZSet(z)) => Ok(z.score(args.get(2))),
        Some(_) => Err(CmdError::WrongType),
    })??;
    match score {
        Some(s) => ctx.reply.double(s),
        None => ctx.reply.null(),
    }
    Ok(())
}
