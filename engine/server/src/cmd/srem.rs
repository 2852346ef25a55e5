//! SREM key member [member ...]: replies with the number removed; an emptied set is deleted.

use super::util::apply;
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Delta, Value};
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (removed, lsn) = ctx.db().update(args.get(1), |slot| -> Result<i64, CmdError> {
        match slot.get().map(|e| &e.value) {
            None => return Ok(0),
            Some(Value::Set(s)) if !args.tail(2).iter().any(|m| s.contains(m)) => return Ok(0),
            Some(Value::Set(_)) => {}
            Some(_) => return Err(CmdError::WrongType),
        }
        Ok(args.tail(2).iter().filter(|m| apply(slot, Delta::SetRem(Bytes::copy_from_slice(m)))).count() as i64)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(removed?);
    Ok(())
}
