//! FUNCTION FLUSH [ASYNC | SYNC]: Basalt stores no functions (FUNCTION LOAD is not
//! implemented), so there is nothing to delete; test harnesses and tools call it to start clean.

use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    match args.try_get(2) {
        None => {}
        Some(mode) if is(mode, "async") || is(mode, "sync") => {}
        Some(_) => return Err(CmdError::msg("ERR FUNCTION FLUSH only supports SYNC|ASYNC option")),
    }
    ctx.reply.ok();
    Ok(())
}
