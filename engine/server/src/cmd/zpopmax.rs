//! ZPOPMAX key [count]: removes and returns the members with the highest scores.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::zpopmin::pop_command(ctx, args, true)
}
