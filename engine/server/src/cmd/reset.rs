//! RESET: back to a fresh connection (RESP2, no name, not authenticated if auth is required).

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    ctx.reply.resp3 = false;
    let requires_auth = ctx.shared.auth.requires_auth();
    ctx.session.user = if requires_auth { None } else { Some("default".to_string()) };
    ctx.session.handle.update_meta(|m| {
        m.name = None;
        m.resp = 2;
        m.user = "default".to_string();
    });
    ctx.reply.simple("RESET");
    Ok(())
}
