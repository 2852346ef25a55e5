//! SINTERCARD numkeys key [key ...] [LIMIT limit]: the size of the intersection.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::setops::intercard(ctx, args)
}
