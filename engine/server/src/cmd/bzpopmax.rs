//! BZPOPMAX key [key ...] timeout: BZPOPMIN from the highest score.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::bzpopmin::blocking_pop(ctx, args, true)
}
