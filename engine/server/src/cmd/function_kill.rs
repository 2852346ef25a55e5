//! FUNCTION KILL: SCRIPT KILL for a running function.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::script_kill::run(ctx, args)
}
