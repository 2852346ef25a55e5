//! ACL LOAD

use super::acl::users;
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    users(ctx)?.reload().map_err(|e| CmdError::msg(if e.starts_with("ERR") { e } else { format!("ERR {e}") }))?;
    ctx.reply.ok();
    Ok(())
}
