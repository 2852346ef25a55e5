//! SISMEMBER key member

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let found = ctx.db().read(args.get(1), |entry| match entry.map(|e| &e.value) {
        None => Ok(false),
        Some(Value::Set(s)) => Ok(s.contains(args.get(2))),
        Some(_) => Err(CmdError::WrongType),
    })??;
    ctx.reply.int(found as i64);
    Ok(())
}
