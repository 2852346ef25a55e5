//! FLUSHALL [ASYNC | SYNC]: deletes every key (one log record).

use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

/// Shared with FLUSHDB (Basalt has one database).
pub fn flush(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    match args.len() {
        1 => {}
        2 if is(args.get(1), "async") || is(args.get(1), "sync") => {}
        _ => return Err(CmdError::Syntax),
    }
    let lsn = ctx.shared.db.flush_all()?;
    ctx.wrote(lsn);
    ctx.reply.ok();
    Ok(())
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    flush(ctx, args)
}
