//! PING [message]

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    if ctx.session.subscribed() && !ctx.reply.resp3 {
        // RESP2 while subscribed: the reply looks like a message, as in Redis.
        ctx.reply.array(2);
        ctx.reply.bulk(b"pong");
        ctx.reply.bulk(args.try_get(1).unwrap_or(b""));
        return Ok(());
    }
    match args.len() {
        1 => ctx.reply.simple("PONG"),
        2 => ctx.reply.bulk(args.get(1)),
        _ => return Err(crate::error::CmdError::WrongArgs("ping")),
    }
    Ok(())
}
