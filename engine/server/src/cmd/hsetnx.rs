//! HSETNX key field value

use super::util::{apply, ensure_collection, new_hash};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Delta, Value};
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let field = args.get(2);
    let (set, lsn) = ctx.db().update(args.get(1), |slot| -> Result<bool, CmdError> {
        // Look first so that an existing field does not mark the key as changed.
        match slot.get().map(|e| &e.value) {
            Some(Value::Hash(h)) if h.contains_key(field) => return Ok(false),
            Some(Value::Hash(_)) | None => {}
            Some(_) => return Err(CmdError::WrongType),
        }
        ensure_collection(slot, new_hash)?;
        apply(slot, Delta::HashSet(Bytes::copy_from_slice(field), Bytes::copy_from_slice(args.get(3))));
        Ok(true)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(set? as i64);
    Ok(())
}
