//! MULTI: starts a transaction; later commands are queued until EXEC or DISCARD.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::multi::MultiState;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    if ctx.session.multi.is_some() {
        return Err(CmdError::msg("ERR MULTI calls can not be nested"));
    }
    ctx.session.multi = Some(MultiState::default());
    ctx.reply.ok();
    Ok(())
}
