//! ECHO message

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    ctx.reply.bulk(args.get(1));
    Ok(())
}
