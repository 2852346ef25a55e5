//! INCRBYFLOAT key increment

use super::util::{as_str, put_with_expiry, Expiry};
use super::{arg_f64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::number::{parse_f64, push_f64_human};
use crate::resp::Args;
use basalt_storage::Value;
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let delta = arg_f64(args.get(2))?;
    let (result, lsn) = ctx.db().update(args.get(1), |slot| -> Result<Bytes, CmdError> {
        let current = match slot.get() {
            Some(e) => parse_f64(as_str(e)?).ok_or(CmdError::NotFloat)?,
            None => 0.0,
        };
        let next = current + delta;
        if !next.is_finite() {
            return Err(CmdError::msg("ERR increment would produce NaN or Infinity"));
        }
        let mut text = Vec::with_capacity(24);
        push_f64_human(&mut text, next);
        let text = Bytes::from(text);
        put_with_expiry(slot, Value::Str(text.clone()), Expiry::Keep);
        Ok(text)
    })?;
    ctx.wrote(lsn);
    ctx.reply.bulk(&result?);
    Ok(())
}
