//! SLOWLOG RESET: empties the slow log.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    ctx.shared.slowlog.reset();
    ctx.reply.ok();
    Ok(())
}
