//! CLIENT GETNAME

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    match ctx.session.handle.meta().name {
        Some(name) => ctx.reply.bulk(name.as_bytes()),
        None => ctx.reply.null(),
    }
    Ok(())
}
