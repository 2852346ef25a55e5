//! EVALSHA_RO sha1 numkeys [key ...] [arg ...]: EVALSHA of a script that may not write.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::evalsha::evalsha(ctx, args, true)
}
