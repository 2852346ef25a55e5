//! RPUSHX key element [element ...]: RPUSH only onto an existing list; the new length, 0 when
//! the key is missing.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::lpushx::push_existing(ctx, args, false)
}
