//! ACL SETUSER username [rule [rule ...]]

use super::acl::{text, users};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let name = text(args.get(2));
    let rules: Vec<String> = args.tail(3).iter().map(text).collect();
    users(ctx)?.set_user(&name, &rules).map_err(CmdError::Other)?;
    ctx.reply.ok();
    Ok(())
}
