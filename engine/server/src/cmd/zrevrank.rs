//! ZREVRANK key member: the member's 0-based position by descending score, or null.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::zrank::rank(ctx, args, true)
}
