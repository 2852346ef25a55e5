//! BRPOP key [key ...] timeout: BLPOP from the tail.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::blpop::blocking_pop(ctx, args, false)
}
