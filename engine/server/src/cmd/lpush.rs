//! LPUSH key element [element ...]: replies with the new length.

use super::util::{apply, ensure_collection, new_list};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Delta, Value};
use bytes::Bytes;

/// Pushes `args[2..]` at the head (`left`) or tail; shared with RPUSH.
pub fn push(ctx: &mut Ctx<'_>, args: Args<'_>, left: bool) -> CmdResult {
    let (len, lsn) = ctx.db().update(args.get(1), |slot| -> Result<usize, CmdError> {
        ensure_collection(slot, new_list)?;
        for element in args.tail(2).iter() {
            apply(slot, Delta::ListPush { left, element: Bytes::copy_from_slice(element) });
        }
        match slot.get().map(|e| &e.value) {
            Some(Value::List(list)) => Ok(list.len()),
            _ => Err(CmdError::WrongType),
        }
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(len? as i64);
    Ok(())
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    push(ctx, args, true)
}
