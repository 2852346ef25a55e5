//! GETEX key [EX seconds | PX milliseconds | EXAT unix-time-seconds | PXAT unix-time-milliseconds | PERSIST]

use super::util::{as_str, deadline};
use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use bytes::Bytes;

enum Change {
    None,
    Persist,
    At(i64),
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let now = basalt_storage::now_ms();
    let change = match args.len() {
        2 => Change::None,
        3 if is(args.get(2), "persist") => Change::Persist,
        4 => {
            let opt = args.get(2);
            let value = arg_i64(args.get(3))?;
            let (unit_ms, absolute) = if is(opt, "ex") {
                (false, false)
            } else if is(opt, "px") {
                (true, false)
            } else if is(opt, "exat") {
                (false, true)
            } else if is(opt, "pxat") {
                (true, true)
            } else {
                return Err(CmdError::Syntax);
            };
            Change::At(deadline(value, unit_ms, absolute, now, "getex")?)
        }
        _ => return Err(CmdError::Syntax),
    };
    let (value, lsn) = ctx.db().update(args.get(1), |slot| -> Result<Option<Bytes>, CmdError> {
        let value = match slot.get() {
            Some(e) => as_str(e)?.clone(),
            None => return Ok(None),
        };
        match change {
            Change::None => {}
            Change::Persist => {
                slot.set_expiry(None);
            }
            Change::At(at) if at <= slot.now_ms() as i64 => {
                slot.remove();
            }
            Change::At(at) => {
                slot.set_expiry(Some(at as u64));
            }
        }
        Ok(Some(value))
    })?;
    ctx.wrote(lsn);
    match value? {
        Some(b) => ctx.reply.bulk(&b),
        None => ctx.reply.null(),
    }
    Ok(())
}
