//! UNWATCH: forgets every WATCHed key of the connection.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    ctx.session.unwatch(&ctx.shared.db);
    ctx.reply.ok();
    Ok(())
}
