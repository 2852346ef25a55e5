//! EXPIRE key seconds [NX | XX | GT | LT] (PEXPIRE, EXPIREAT and PEXPIREAT share `set_expire`).

use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

/// Sets the expiry of `args[1]` from `args[2]`, in seconds or ms, relative or absolute, with
/// the Redis 7 conditions. A time in the past deletes the key. Replies 1 if applied, else 0.
pub fn set_expire(ctx: &mut Ctx<'_>, args: Args<'_>, unit_ms: bool, absolute: bool, name: &'static str) -> CmdResult {
    let value = arg_i64(args.get(2))?;
    let (mut nx, mut xx, mut gt, mut lt) = (false, false, false, false);
    for opt in args.tail(3).iter() {
        if is(opt, "nx") {
            nx = true;
        } else if is(opt, "xx") {
            xx = true;
        } else if is(opt, "gt") {
            gt = true;
        } else if is(opt, "lt") {
            lt = true;
        } else {
            return Err(CmdError::msg(format!("ERR Unsupported option {}", String::from_utf8_lossy(opt))));
        }
    }
    if nx && (xx || gt || lt) {
        return Err(CmdError::msg("ERR NX and XX, GT or LT options at the same time are not compatible"));
    }
    if gt && lt {
        return Err(CmdError::msg("ERR GT and LT options at the same time are not compatible"));
    }
    let ms = if unit_ms { Some(value) } else { value.checked_mul(1000) };
    let (applied, lsn) = ctx.db().update(args.get(1), |slot| -> Result<bool, CmdError> {
        let Some(entry) = slot.get() else { return Ok(false) };
        let at = ms
            .and_then(|ms| if absolute { Some(ms) } else { ms.checked_add(slot.now_ms() as i64) })
            .ok_or(CmdError::InvalidExpire(name))?;
        let current = entry.expires_at_ms;
        let allowed = match current {
            None => !xx && !gt,
            Some(cur) => !nx && (!gt || at > cur as i64) && (!lt || at < cur as i64),
        };
        if !allowed {
            return Ok(false);
        }
        if at <= slot.now_ms() as i64 {
            slot.remove();
        } else {
            slot.set_expiry(Some(at as u64));
        }
        Ok(true)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(applied? as i64);
    Ok(())
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    set_expire(ctx, args, false, false, "expire")
}
