//! LPUSHX key element [element ...]: LPUSH only onto an existing list; the new length, 0 when
//! the key is missing.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    push_existing(ctx, args, true)
}

/// LPUSHX and RPUSHX.
pub fn push_existing(ctx: &mut Ctx<'_>, args: Args<'_>, left: bool) -> CmdResult {
    use crate::error::CmdError;
    use basalt_storage::{Delta, Value};
    use bytes::Bytes;
    let (len, lsn) = ctx.db().update(args.get(1), |slot| -> Result<usize, CmdError> {
        match slot.get().map(|e| &e.value) {
            None => return Ok(0),
            Some(Value::List(_)) => {}
            Some(_) => return Err(CmdError::WrongType),
        }
        for element in args.tail(2).iter() {
            slot.apply(Delta::ListPush { left, element: Bytes::copy_from_slice(element) });
        }
        match slot.get().map(|e| &e.value) {
            Some(Value::List(list)) => Ok(list.len()),
            _ => Ok(0),
        }
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(len? as i64);
    Ok(())
}
