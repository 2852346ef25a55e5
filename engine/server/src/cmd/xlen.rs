//! XLEN key: the number of entries (0 for a missing key).

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let len = ctx.db().read(args.get(1), |e| match e.map(|e| &e.value) {
        None => Ok(0),
        Some(Value::Stream(s)) => Ok(s.len() as i64),
        Some(_) => Err(CmdError::WrongType),
    })??;
    ctx.reply.int(len);
    Ok(())
}
