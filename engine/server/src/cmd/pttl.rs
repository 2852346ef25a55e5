//! PTTL key: -2 if missing, -1 without expiry, else milliseconds left.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

/// Milliseconds left, -1 or -2, as TTL and PTTL report them.
pub fn remaining_ms(ctx: &mut Ctx<'_>, key: &[u8]) -> Result<i64, crate::error::CmdError> {
    let now = basalt_storage::now_ms();
    Ok(ctx.db().read(key, |entry| match entry {
        None => -2,
        Some(e) => match e.expires_at_ms {
            None => -1,
            Some(at) => at.saturating_sub(now) as i64,
        },
    })?)
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let ms = remaining_ms(ctx, args.get(1))?;
    ctx.reply.int(ms);
    Ok(())
}
