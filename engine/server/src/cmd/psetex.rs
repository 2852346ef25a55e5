//! PSETEX key milliseconds value

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::setex::set_with_ttl(ctx, args, true, "psetex")
}
