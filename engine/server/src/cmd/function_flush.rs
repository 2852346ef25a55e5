//! FUNCTION FLUSH [ASYNC | SYNC]: deletes every library.

use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    match args.try_get(2) {
        None => {}
        Some(mode) if is(mode, "async") || is(mode, "sync") => {}
        Some(_) => return Err(CmdError::msg("ERR FUNCTION FLUSH only supports SYNC|ASYNC option")),
    }
    let scripts = &ctx.shared.scripts;
    scripts.libraries.lock().unwrap_or_else(|e| e.into_inner()).clear();
    scripts.library_generation.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    ctx.reply.ok();
    Ok(())
}
