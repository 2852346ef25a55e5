//! DBSIZE

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    ctx.reply.int(ctx.db().len() as i64);
    Ok(())
}
