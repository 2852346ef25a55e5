//! FLUSHDB [ASYNC | SYNC]: deletes every key of the selected database (one log record).

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::flushall::check_mode(&args)?;
    let lsn = ctx.db().flush()?;
    ctx.wrote(lsn);
    ctx.reply.ok();
    Ok(())
}
