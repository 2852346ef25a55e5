//! PERSIST key: 1 if an expiry was removed, else 0.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (removed, lsn) = ctx.db().update(args.get(1), |slot| {
        let had = slot.get().is_some_and(|e| e.expires_at_ms.is_some());
        if had {
            slot.set_expiry(None);
        }
        had
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(removed as i64);
    Ok(())
}
