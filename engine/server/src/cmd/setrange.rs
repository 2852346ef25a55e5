//! SETRANGE key offset value: overwrite from `offset`, padding with zero bytes.

use super::util::{as_str, put_with_expiry, Expiry};
use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::frame::MAX_BULK_LEN;
use crate::resp::Args;
use basalt_storage::Value;
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let offset = arg_i64(args.get(2))?;
    if offset < 0 {
        return Err(CmdError::msg("ERR offset is out of range"));
    }
    let offset = offset as u64;
    let patch = args.get(3);
    let (len, lsn) = ctx.db().update(args.get(1), |slot| -> Result<usize, CmdError> {
        let current: Option<Vec<u8>> = match slot.get() {
            Some(e) => Some(as_str(e)?.to_vec()),
            None => None,
        };
        if patch.is_empty() {
            return Ok(current.map_or(0, |c| c.len()));
        }
        if offset + patch.len() as u64 > MAX_BULK_LEN as u64 {
            return Err(CmdError::msg("ERR string exceeds maximum allowed size (proto-max-bulk-len)"));
        }
        let offset = offset as usize;
        let mut s = current.unwrap_or_default();
        if s.len() < offset + patch.len() {
            s.resize(offset + patch.len(), 0);
        }
        s[offset..offset + patch.len()].copy_from_slice(patch);
        let len = s.len();
        put_with_expiry(slot, Value::Str(Bytes::from(s)), Expiry::Keep);
        Ok(len)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(len? as i64);
    Ok(())
}
