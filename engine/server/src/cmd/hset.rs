//! HSET key field value [field value ...]: replies with the number of new fields.

use super::util::{apply, ensure_collection, new_hash};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Delta;
use bytes::Bytes;

/// Sets the field/value pairs from `args[2..]`; returns how many fields were new.
pub fn set_fields(ctx: &mut Ctx<'_>, args: Args<'_>, name: &'static str) -> Result<i64, CmdError> {
    if args.len() % 2 == 1 {
        return Err(CmdError::WrongArgs(name));
    }
    let (added, lsn) = ctx.db().update(args.get(1), |slot| -> Result<i64, CmdError> {
        ensure_collection(slot, new_hash)?;
        let mut added = 0;
        let mut i = 2;
        while i + 1 < args.len() {
            let (field, value) = (Bytes::copy_from_slice(args.get(i)), Bytes::copy_from_slice(args.get(i + 1)));
            added += apply(slot, Delta::HashSet(field, value)) as i64;
            i += 2;
        }
        Ok(added)
    })?;
    ctx.wrote(lsn);
    added
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let added = set_fields(ctx, args, "hset")?;
    ctx.reply.int(added);
    Ok(())
}
