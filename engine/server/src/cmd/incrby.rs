//! INCRBY key increment (INCR, DECR and DECRBY use `add` too).

use super::util::{as_str, put_with_expiry, Expiry};
use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::number::{parse_i64, push_i64};
use crate::resp::Args;
use basalt_storage::Value;
use bytes::Bytes;

/// Adds `delta` to the integer at `key` (0 if missing), keeping its TTL; replies the result.
pub fn add(ctx: &mut Ctx<'_>, key: &[u8], delta: i64) -> CmdResult {
    let (result, lsn) = ctx.db().update(key, |slot| -> Result<i64, CmdError> {
        let current = match slot.get() {
            Some(e) => parse_i64(as_str(e)?).ok_or(CmdError::NotInteger)?,
            None => 0,
        };
        let next = current.checked_add(delta).ok_or(CmdError::Overflow)?;
        let mut text = Vec::with_capacity(20);
        push_i64(&mut text, next);
        put_with_expiry(slot, Value::Str(Bytes::from(text)), Expiry::Keep);
        Ok(next)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(result?);
    Ok(())
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let delta = arg_i64(args.get(2))?;
    add(ctx, args.get(1), delta)
}
