//! ACL USERS

use super::acl::users;
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    let all = users(ctx)?.users();
    ctx.reply.array(all.len());
    for user in all {
        ctx.reply.bulk(user.name.as_bytes());
    }
    Ok(())
}
