//! DEBUG SET-ACTIVE-EXPIRE 0|1: stops or restarts the background removal of expired keys
//! (they are still removed when touched), so tests can watch lazy expiry.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let on = match args.get(2) {
        b"0" => false,
        b"1" => true,
        _ => return Err(CmdError::Syntax),
    };
    ctx.shared.db.set_active_expire(on);
    ctx.reply.ok();
    Ok(())
}
