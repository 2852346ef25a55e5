//! DEBUG SET-DISABLE-DENY-SCRIPTS 0|1: with 1, scripts may call the commands flagged
//! `noscript` (Redis' tests call DEBUG PROTOCOL from Lua this way); 0 restores the refusal.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;
use std::sync::atomic::Ordering::Relaxed;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    // Redis reads the flag with atoi: anything but a non-zero number is 0.
    let on = std::str::from_utf8(args.get(2)).ok().and_then(|s| s.trim().parse::<i64>().ok()).unwrap_or(0) != 0;
    ctx.shared.scripts.deny_script_disabled.store(on, Relaxed);
    ctx.reply.ok();
    Ok(())
}
