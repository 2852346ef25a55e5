//! QUIT: reply OK, then close once the replies before it are sent.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    ctx.reply.ok();
    ctx.session.close_after_reply = true;
    Ok(())
}
