//! SREM key member [member ...]: replies with the number removed; an emptied set is deleted.

use super::util::{existing_collection_mut, pick_set};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Kind, Value};

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (removed, lsn) = ctx.db().update(args.get(1), |slot| -> Result<i64, CmdError> {
        match slot.get().map(|e| &e.value) {
            None => return Ok(0),
            Some(Value::Set(s)) if !args.tail(2).iter().any(|m| s.contains(m)) => return Ok(0),
            Some(Value::Set(_)) => {}
            Some(_) => return Err(CmdError::WrongType),
        }
        let Some(set) = existing_collection_mut(slot, Kind::Set, pick_set)? else { return Ok(0) };
        Ok(args.tail(2).iter().filter(|m| set.remove(*m)).count() as i64)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(removed?);
    Ok(())
}
