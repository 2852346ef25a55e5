//! HSTRLEN key field: the length of the field's value, 0 when the field or key is missing.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let len = ctx.db().read(args.get(1), |entry| match entry.map(|e| &e.value) {
        None => Ok(0),
        Some(Value::Hash(h)) => Ok(h.get(args.get(2)).map_or(0, |v| v.len())),
        Some(_) => Err(CmdError::WrongType),
    })??;
    ctx.reply.int(len as i64);
    Ok(())
}
