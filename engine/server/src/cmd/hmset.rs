//! HMSET key field value [field value ...]: as HSET, replying OK.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::hset::set_fields(ctx, args, "hmset")?;
    ctx.reply.ok();
    Ok(())
}
