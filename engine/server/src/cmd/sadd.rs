//! SADD key member [member ...]: replies with the number of new members.

use super::util::{apply, ensure_collection, new_set};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Delta, Value};
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (added, lsn) = ctx.db().update(args.get(1), |slot| -> Result<i64, CmdError> {
        if let Some(Value::Set(s)) = slot.get().map(|e| &e.value) {
            if args.tail(2).iter().all(|m| s.contains(m)) {
                return Ok(0);
            }
        }
        ensure_collection(slot, new_set)?;
        Ok(args.tail(2).iter().filter(|m| apply(slot, Delta::SetAdd(Bytes::copy_from_slice(m)))).count() as i64)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(added?);
    Ok(())
}
