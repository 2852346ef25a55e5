//! PSUBSCRIBE pattern [pattern ...]: like SUBSCRIBE, for every channel matching a glob pattern.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::subscribe::subscribe(ctx, args, true)
}
