//! HINCRBYFLOAT key field increment: adds a float to a field (0 when missing) and replies
//! with the new value, written as INCRBYFLOAT writes it.

use super::util::{ensure_collection, new_hash};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::number::{parse_f64, push_f64_human};
use crate::resp::Args;
use basalt_storage::{Delta, Value};
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    // `inf` parses, then is refused with its own message, as Redis does.
    let incr = parse_f64(args.get(3)).ok_or(CmdError::NotFloat)?;
    if !incr.is_finite() {
        return Err(CmdError::msg("ERR value is NaN or Infinity"));
    }
    let field = args.get(2);
    let (result, lsn) = ctx.db().update(args.get(1), |slot| -> Result<Bytes, CmdError> {
        // Validate before touching the key, so a refused increment logs nothing.
        let current = match slot.get().map(|e| &e.value) {
            None => 0.0,
            Some(Value::Hash(h)) => match h.get(field) {
                None => 0.0,
                Some(v) => parse_f64(v).ok_or_else(|| CmdError::msg("ERR hash value is not a float"))?,
            },
            Some(_) => return Err(CmdError::WrongType),
        };
        let next = current + incr;
        if !next.is_finite() {
            return Err(CmdError::msg("ERR increment would produce NaN or Infinity"));
        }
        let mut text = Vec::with_capacity(24);
        push_f64_human(&mut text, next);
        let text = Bytes::from(text);
        ensure_collection(slot, new_hash)?;
        slot.apply(Delta::HashSet(Bytes::copy_from_slice(field), text.clone()));
        Ok(text)
    })?;
    ctx.wrote(lsn);
    ctx.reply.bulk(&result?);
    Ok(())
}
