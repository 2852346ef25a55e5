//! COMMAND COUNT

use super::Ctx;
use crate::error::CmdResult;
use crate::registry::registry;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    ctx.reply.int(registry().top_level.len() as i64);
    Ok(())
}
