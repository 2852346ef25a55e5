//! EXPIREAT key unix-time-seconds [NX | XX | GT | LT]

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::expire::set_expire(ctx, args, false, true, "expireat")
}
