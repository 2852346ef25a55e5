//! MEMORY USAGE key [SAMPLES count]: the bytes the key takes by Basalt's own accounting (the
//! figures `maxmemory` is held to: the key, its value and the per-key overhead of the index),
//! or null when the key is missing. Values are measured whole, so SAMPLES changes nothing.

use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

/// What the index keeps per key besides the key and value bytes (basalt-storage's figure).
const KEY_OVERHEAD: usize = 160;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let mut i = 3;
    while i < args.len() {
        if is(args.get(i), "samples") && i + 1 < args.len() {
            arg_i64(args.get(i + 1))?;
            i += 2;
        } else {
            return Err(CmdError::Syntax);
        }
    }
    let key = args.get(2);
    let size = ctx.db().read(key, |entry| entry.map(|e| key.len() + e.value.mem_size() + KEY_OVERHEAD))?;
    match size {
        Some(n) => ctx.reply.int(n as i64),
        None => ctx.reply.null(),
    }
    Ok(())
}
