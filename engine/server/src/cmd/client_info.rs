//! CLIENT INFO: this connection, in the CLIENT LIST format.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    let mut line = ctx.session.handle.describe();
    line.push('\n');
    ctx.reply.verbatim(line.as_bytes());
    Ok(())
}
