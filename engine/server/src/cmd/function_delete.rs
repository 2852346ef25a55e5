//! FUNCTION DELETE library: removes a library and its functions.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use std::sync::atomic::Ordering::Relaxed;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let name = String::from_utf8_lossy(args.get(2)).into_owned();
    let scripts = &ctx.shared.scripts;
    if scripts.libraries.lock().unwrap_or_else(|e| e.into_inner()).remove(&name).is_none() {
        return Err(CmdError::msg("ERR Library not found"));
    }
    scripts.library_generation.fetch_add(1, Relaxed);
    ctx.reply.ok();
    Ok(())
}
