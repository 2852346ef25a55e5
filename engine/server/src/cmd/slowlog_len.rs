//! SLOWLOG LEN: entries in the slow log.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    ctx.reply.int(ctx.shared.slowlog.len() as i64);
    Ok(())
}
