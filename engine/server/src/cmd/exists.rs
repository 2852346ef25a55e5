//! EXISTS key [key ...]: counts keys that exist (a key named twice counts twice).

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let count = args.tail(1).iter().filter(|key| ctx.db().kind(key).is_some()).count();
    ctx.reply.int(count as i64);
    Ok(())
}
