//! DEBUG QUICKLIST-PACKED-THRESHOLD size: in Redis, list elements from this size on get a
//! quicklist node of their own. Basalt stores every element alike (as above any threshold),
//! so it checks the argument as Redis does and changes nothing.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    if crate::config::parse_memory(&String::from_utf8_lossy(args.get(2))).is_none() {
        return Err(CmdError::msg("ERR argument must be a memory value bigger than 1 and smaller than 4gb"));
    }
    ctx.reply.ok();
    Ok(())
}
