//! APPEND key value: replies with the new length.

use super::util::{as_str, put_with_expiry, Expiry};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let suffix = args.get(2);
    let (len, lsn) = ctx.db().update(args.get(1), |slot| -> Result<usize, CmdError> {
        let mut joined = match slot.get() {
            Some(e) => as_str(e)?.to_vec(),
            None => Vec::new(),
        };
        if joined.len() + suffix.len() > crate::resp::frame::MAX_BULK_LEN {
            return Err(CmdError::msg("ERR string exceeds maximum allowed size (proto-max-bulk-len)"));
        }
        joined.extend_from_slice(suffix);
        let len = joined.len();
        put_with_expiry(slot, Value::Str(Bytes::from(joined)), Expiry::Keep);
        Ok(len)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(len? as i64);
    Ok(())
}
