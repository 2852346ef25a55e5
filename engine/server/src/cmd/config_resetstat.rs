//! CONFIG RESETSTAT: command statistics and the totals of INFO stats start again from zero.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    ctx.shared.stats.reset();
    ctx.reply.ok();
    Ok(())
}
