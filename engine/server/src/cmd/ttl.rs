//! TTL key: -2 if missing, -1 without expiry, else seconds left (rounded as Redis rounds).

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let ms = super::pttl::remaining_ms(ctx, args.get(1))?;
    ctx.reply.int(if ms < 0 { ms } else { (ms + 500) / 1000 });
    Ok(())
}
