//! LINSERT key BEFORE|AFTER pivot element: inserts next to the first `pivot`; the new length,
//! -1 when the pivot is missing, 0 when the key is.

use super::util::{existing_collection_mut, pick_list};
use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Kind, Value};
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let after = if is(args.get(2), "after") {
        true
    } else if is(args.get(2), "before") {
        false
    } else {
        return Err(CmdError::Syntax);
    };
    let (pivot, element) = (args.get(3), Bytes::copy_from_slice(args.get(4)));
    let (len, lsn) = ctx.db().update(args.get(1), |slot| -> Result<i64, CmdError> {
        let at = match slot.get().map(|e| &e.value) {
            None => return Ok(0),
            Some(Value::List(l)) => l.iter().position(|e| e.as_ref() == pivot),
            Some(_) => return Err(CmdError::WrongType),
        };
        let Some(at) = at else { return Ok(-1) };
        let Some(list) = existing_collection_mut(slot, Kind::List, pick_list)? else { return Ok(0) };
        list.insert(if after { at + 1 } else { at }, element);
        Ok(list.len() as i64)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(len?);
    Ok(())
}
