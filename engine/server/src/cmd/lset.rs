//! LSET key index element: replaces the element at `index`.

use super::lindex::list_position;
use super::util::{existing_collection_mut, pick_list};
use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Kind, Value};
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let index = arg_i64(args.get(2))?;
    let element = Bytes::copy_from_slice(args.get(3));
    let (done, lsn) = ctx.db().update(args.get(1), |slot| -> Result<(), CmdError> {
        let at = match slot.get().map(|e| &e.value) {
            None => return Err(CmdError::NoSuchKey),
            Some(Value::List(l)) => list_position(index, l.len()).ok_or_else(|| CmdError::msg("ERR index out of range"))?,
            Some(_) => return Err(CmdError::WrongType),
        };
        if let Some(list) = existing_collection_mut(slot, Kind::List, pick_list)? {
            list[at] = element;
        }
        Ok(())
    })?;
    ctx.wrote(lsn);
    done?;
    ctx.reply.ok();
    Ok(())
}
