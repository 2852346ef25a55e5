//! PUNSUBSCRIBE [pattern ...]: UNSUBSCRIBE for patterns.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::unsubscribe::unsubscribe(ctx, args, true)
}
