//! ACL DELUSER username [username ...]
//!
//! Connections of a deleted user stay open but every further command gets `-NOPERM`.

use super::acl::{text, users};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let names: Vec<String> = args.tail(2).iter().map(text).collect();
    let removed = users(ctx)?.delete_users(&names).map_err(CmdError::Other)?;
    ctx.reply.int(removed as i64);
    Ok(())
}
