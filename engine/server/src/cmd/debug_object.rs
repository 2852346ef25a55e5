//! DEBUG OBJECT key: a line about the value, in Redis' format, past its expiry too.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let thresholds = ctx.shared.config.read().unwrap_or_else(|e| e.into_inner()).encodings.clone();
    let key = args.get(2);
    let idle = ctx.db().idle_secs(key).unwrap_or(0);
    // As it is in the map, expired or not (Redis reads its dict): a test can see that a key
    // past its expiry is still there until something touches it.
    let described = ctx.db().inspect(key, |entry| {
        entry.map(|e| (crate::encoding::encoding(&e.value, &thresholds), e.value.mem_size()))
    })?;
    let Some((encoding, size)) = described else { return Err(CmdError::msg("ERR no such key")) };
    ctx.reply.simple(&format!(
        "Value at:0x0 refcount:1 encoding:{encoding} serializedlength:{size} lru:0 lru_seconds_idle:{idle}"
    ));
    Ok(())
}
