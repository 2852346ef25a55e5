//! EXPIRETIME key: the absolute expiry in unix seconds; -1 without expiry, -2 if missing.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let at = super::pexpiretime::expires_at_ms(ctx, args.get(1))?;
    ctx.reply.int(if at < 0 { at } else { at / 1000 });
    Ok(())
}
