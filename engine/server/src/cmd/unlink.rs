//! UNLINK key [key ...]: as DEL (values are freed by the same call; there is no lazy-free thread).

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::del::remove_keys(ctx, args)
}
