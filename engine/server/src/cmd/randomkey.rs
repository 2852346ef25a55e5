//! RANDOMKEY

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    match ctx.db().random_key() {
        Some(key) => ctx.reply.bulk(&key),
        None => ctx.reply.null(),
    }
    Ok(())
}
