//! RESET: back to a fresh connection (RESP2, no name, not authenticated if auth is required).

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    ctx.reply.resp3 = false;
    let requires_auth = ctx.shared.auth.requires_auth();
    ctx.session.user = if requires_auth { None } else { Some("default".to_string()) };
    ctx.session.db = 0;
    ctx.session.multi = None;
    ctx.session.unwatch(&ctx.shared.db);
    if let Some(subs) = ctx.session.subs.take() {
        ctx.shared.pubsub.forget(ctx.session.id(), &subs);
    }
    ctx.session.handle.update_meta(|m| {
        m.db = 0;
        (m.sub, m.psub) = (0, 0);
        m.name = None;
        m.resp = 2;
        m.user = "default".to_string();
    });
    ctx.reply.simple("RESET");
    Ok(())
}
