//! SCARD key

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let len = ctx.db().read(args.get(1), |entry| match entry.map(|e| &e.value) {
        None => Ok(0),
        Some(Value::Set(s)) => Ok(s.len()),
        Some(_) => Err(CmdError::WrongType),
    })??;
    ctx.reply.int(len as i64);
    Ok(())
}
