//! FLUSHALL [ASYNC | SYNC]: deletes every key of every database (one log record).

use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

/// The optional ASYNC/SYNC argument (shared with FLUSHDB; both flush at once).
pub fn check_mode(args: &Args<'_>) -> CmdResult {
    match args.len() {
        1 => Ok(()),
        2 if is(args.get(1), "async") || is(args.get(1), "sync") => Ok(()),
        _ => Err(CmdError::Syntax),
    }
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    check_mode(&args)?;
    let lsn = ctx.shared.db.flush_all()?;
    ctx.wrote(lsn);
    ctx.reply.ok();
    Ok(())
}
