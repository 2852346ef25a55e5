//! SET key value [NX | XX] [GET] [EX seconds | PX milliseconds | EXAT unix-time-seconds |
//! PXAT unix-time-milliseconds | KEEPTTL]

use super::util::{as_str, deadline, put_with_expiry, Expiry};
use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;
use bytes::Bytes;

#[derive(Clone, Copy, PartialEq)]
enum TimeOption {
    None,
    Relative { value: i64, unit_ms: bool },
    Absolute { value: i64, unit_ms: bool },
    KeepTtl,
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (mut nx, mut xx, mut get) = (false, false, false);
    let mut time = TimeOption::None;
    let mut i = 3;
    while i < args.len() {
        let opt = args.get(i);
        let next = args.try_get(i + 1);
        let timed = |unit_ms: bool, absolute: bool| -> Result<TimeOption, CmdError> {
            let value = arg_i64(next.ok_or(CmdError::Syntax)?)?;
            Ok(if absolute { TimeOption::Absolute { value, unit_ms } } else { TimeOption::Relative { value, unit_ms } })
        };
        if is(opt, "nx") && !xx {
            nx = true;
        } else if is(opt, "xx") && !nx {
            xx = true;
        } else if is(opt, "get") {
            get = true;
        } else if is(opt, "keepttl") && time == TimeOption::None {
            time = TimeOption::KeepTtl;
        } else if time == TimeOption::None && next.is_some() && (is(opt, "ex") || is(opt, "px") || is(opt, "exat") || is(opt, "pxat")) {
            let unit_ms = is(opt, "px") || is(opt, "pxat");
            let absolute = is(opt, "exat") || is(opt, "pxat");
            time = timed(unit_ms, absolute)?;
            i += 1;
        } else {
            return Err(CmdError::Syntax);
        }
        i += 1;
    }
    let now = basalt_storage::now_ms();
    let expiry = match time {
        TimeOption::None => Expiry::Clear,
        TimeOption::KeepTtl => Expiry::Keep,
        TimeOption::Relative { value, unit_ms } => Expiry::At(deadline(value, unit_ms, false, now, "set")?),
        TimeOption::Absolute { value, unit_ms } => Expiry::At(deadline(value, unit_ms, true, now, "set")?),
    };
    let value = Bytes::copy_from_slice(args.get(2));
    let (result, lsn) = ctx.db().update(args.get(1), |slot| -> Result<(bool, Option<Bytes>), CmdError> {
        let old = match slot.get() {
            Some(e) if get => Some(as_str(e)?.clone()),
            _ => None,
        };
        let exists = slot.get().is_some();
        if (nx && exists) || (xx && !exists) {
            return Ok((false, old));
        }
        put_with_expiry(slot, Value::Str(value), expiry);
        Ok((true, old))
    })?;
    ctx.wrote(lsn);
    let (applied, old) = result?;
    if get {
        match old {
            Some(b) => ctx.reply.bulk(&b),
            None => ctx.reply.null(),
        }
    } else if applied {
        ctx.reply.ok();
    } else {
        ctx.reply.null();
    }
    Ok(())
}
