//! DEBUG OBJECT key: a line about the value, in Redis' format.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let thresholds = ctx.shared.config.read().unwrap_or_else(|e| e.into_inner()).encodings.clone();
    let key = args.get(2);
    let idle = ctx.db().idle_secs(key).unwrap_or(0);
    let described = ctx.db().read(key, |entry| {
        entry.map(|e| (crate::encoding::encoding(&e.value, &thresholds), e.value.mem_size()))
    })?;
    let Some((encoding, size)) = described else { return Err(CmdError::msg("ERR no such key")) };
    ctx.reply.simple(&format!(
        "Value at:0x0 refcount:1 encoding:{encoding} serializedlength:{size} lru:0 lru_seconds_idle:{idle}"
    ));
    Ok(())
}
