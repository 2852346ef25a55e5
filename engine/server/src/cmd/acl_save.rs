//! ACL SAVE (the users file is also rewritten after every change)

use super::acl::users;
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    users(ctx)?.save().map_err(CmdError::Other)?;
    ctx.reply.ok();
    Ok(())
}
