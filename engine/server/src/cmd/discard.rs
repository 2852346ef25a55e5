//! DISCARD: drops the queued commands and the WATCHes.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    if ctx.session.multi.take().is_none() {
        return Err(CmdError::msg("ERR DISCARD without MULTI"));
    }
    ctx.session.unwatch(&ctx.shared.db);
    ctx.reply.ok();
    Ok(())
}
