//! ACL GETUSER username

use super::acl::{text, users};
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let Some(user) = users(ctx)?.user(&text(args.get(2))) else {
        ctx.reply.null();
        return Ok(());
    };
    let reply = &mut *ctx.reply;
    reply.map(6);
    reply.bulk(b"flags");
    let flags = user.flags();
    reply.array(flags.len());
    for flag in flags {
        reply.bulk(flag.as_bytes());
    }
    reply.bulk(b"passwords");
    reply.array(user.passwords.len());
    for hash in &user.passwords {
        reply.bulk(hash.as_bytes());
    }
    reply.bulk(b"commands");
    reply.bulk(user.commands_rule().as_bytes());
    reply.bulk(b"keys");
    let keys = user.key_patterns.iter().map(|p| format!("~{p}")).collect::<Vec<_>>().join(" ");
    reply.bulk(keys.as_bytes());
    reply.bulk(b"channels");
    let channels = user.channel_patterns.iter().map(|p| format!("&{p}")).collect::<Vec<_>>().join(" ");
    reply.bulk(channels.as_bytes());
    reply.bulk(b"selectors");
    reply.array(0);
    Ok(())
}
