//! OBJECT FREQ key: Basalt keeps no LFU counters (its memory policy moves the least recently
//! used values to disk), so it answers as Redis does without an LFU policy.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    if ctx.db().kind(args.get(2)).is_none() {
        ctx.reply.null();
        return Ok(());
    }
    Err(CmdError::msg(
        "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.",
    ))
}
