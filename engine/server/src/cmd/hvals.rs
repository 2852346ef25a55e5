//! HVALS key

use super::hgetall::{reply_part, Part};
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    reply_part(ctx, args, Part::Values)
}
