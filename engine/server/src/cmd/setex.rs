//! SETEX key seconds value

use super::util::{deadline, put_with_expiry, Expiry};
use super::{arg_i64, Ctx};
use crate::error::CmdResult;
use crate::resp::Args;
use basalt_storage::Value;
use bytes::Bytes;

/// Shared with PSETEX: `unit_ms` picks milliseconds.
pub fn set_with_ttl(ctx: &mut Ctx<'_>, args: Args<'_>, unit_ms: bool, name: &'static str) -> CmdResult {
    let ttl = arg_i64(args.get(2))?;
    let at = deadline(ttl, unit_ms, false, basalt_storage::now_ms(), name)?;
    let value = Bytes::copy_from_slice(args.get(3));
    let ((), lsn) = ctx.db().update(args.get(1), |slot| put_with_expiry(slot, Value::Str(value), Expiry::At(at)))?;
    ctx.wrote(lsn);
    ctx.reply.ok();
    Ok(())
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    set_with_ttl(ctx, args, false, "setex")
}
