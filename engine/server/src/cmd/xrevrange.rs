//! XREVRANGE key end start [COUNT n]: XRANGE newest first.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::xrange::range(ctx, args, true)
}
