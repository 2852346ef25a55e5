//! PING [message]

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    match args.len() {
        1 => ctx.reply.simple("PONG"),
        2 => ctx.reply.bulk(args.get(1)),
        _ => return Err(crate::error::CmdError::WrongArgs("ping")),
    }
    Ok(())
}
