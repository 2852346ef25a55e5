//! DEBUG SLEEP seconds: holds this connection (and, as Redis, keeps EXEC and scripts waiting)
//! for that long; 0 returns at once.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use std::time::Duration;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let secs: f64 = std::str::from_utf8(args.get(2))
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|s: &f64| s.is_finite() && *s >= 0.0 && *s <= 3600.0)
        .ok_or_else(|| CmdError::msg("ERR value is not a valid float"))?;
    crate::multi::blocking(|| std::thread::sleep(Duration::from_secs_f64(secs)));
    ctx.reply.ok();
    Ok(())
}
