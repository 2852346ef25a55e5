//! ROLE: master with its offset and replicas, or replica with its primary and link state.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    crate::replication::info::role(&ctx.shared.repl, ctx.reply);
    Ok(())
}
