//! HINCRBY key field increment

use super::util::{apply, ensure_collection, new_hash};
use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::number::{parse_i64, push_i64};
use crate::resp::Args;
use basalt_storage::Delta;
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let delta = arg_i64(args.get(3))?;
    let field = args.get(2);
    let (result, lsn) = ctx.db().update(args.get(1), |slot| -> Result<i64, CmdError> {
        // Validate before touching the key, so a refused increment logs nothing.
        let current = match slot.get().map(|e| &e.value) {
            None => 0,
            Some(basalt_storage::Value::Hash(h)) => match h.get(field) {
                None => 0,
                Some(v) => parse_i64(v).ok_or_else(|| CmdError::msg("ERR hash value is not an integer"))?,
            },
            Some(_) => return Err(CmdError::WrongType),
        };
        let next = current.checked_add(delta).ok_or(CmdError::Overflow)?;
        ensure_collection(slot, new_hash)?;
        let mut text = Vec::with_capacity(20);
        push_i64(&mut text, next);
        apply(slot, Delta::HashSet(Bytes::copy_from_slice(field), Bytes::from(text)));
        Ok(next)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(result?);
    Ok(())
}
