//! EVAL_RO script numkeys [key ...] [arg ...]: EVAL of a script that may not write.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::eval::eval(ctx, args, true)
}
