//! PEXPIRETIME key: the absolute expiry in unix milliseconds; -1 without expiry, -2 if missing.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

/// The expiry as EXPIRETIME and PEXPIRETIME report it (ms, or -1, -2).
pub fn expires_at_ms(ctx: &mut Ctx<'_>, key: &[u8]) -> Result<i64, CmdError> {
    Ok(ctx.db().read(key, |entry| match entry {
        None => -2,
        Some(e) => e.expires_at_ms.map_or(-1, |at| at as i64),
    })?)
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let at = expires_at_ms(ctx, args.get(1))?;
    ctx.reply.int(at);
    Ok(())
}
