//! FCALL_RO function numkeys [key ...] [arg ...]: FCALL of a `no-writes` function.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::fcall::fcall(ctx, args, true)
}
