//! ACL WHOAMI

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    let name = ctx.session.user.clone().unwrap_or_else(|| "default".to_string());
    ctx.reply.bulk(name.as_bytes());
    Ok(())
}
