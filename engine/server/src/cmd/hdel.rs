//! HDEL key field [field ...]: replies with the number removed; an emptied hash is deleted.

use super::util::apply;
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Delta, Value};
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (removed, lsn) = ctx.db().update(args.get(1), |slot| -> Result<i64, CmdError> {
        // Only touch the key when a field really goes, so a no-op HDEL logs nothing.
        match slot.get().map(|e| &e.value) {
            None => return Ok(0),
            Some(Value::Hash(h)) if !args.tail(2).iter().any(|f| h.contains_key(f)) => return Ok(0),
            Some(Value::Hash(_)) => {}
            Some(_) => return Err(CmdError::WrongType),
        }
        Ok(args.tail(2).iter().filter(|f| apply(slot, Delta::HashDel(Bytes::copy_from_slice(f)))).count() as i64)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(removed?);
    Ok(())
}
