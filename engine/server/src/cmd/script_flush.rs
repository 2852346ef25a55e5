//! SCRIPT FLUSH [ASYNC | SYNC]: empties the script cache.

use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    match args.try_get(2) {
        None => {}
        Some(mode) if is(mode, "async") || is(mode, "sync") => {}
        Some(_) => return Err(CmdError::msg("ERR SCRIPT FLUSH only support SYNC|ASYNC option")),
    }
    ctx.shared.scripts.flush();
    ctx.reply.ok();
    Ok(())
}
