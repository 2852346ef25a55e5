//! XDEL key id [id ...]: deletes entries; replies how many existed.

use super::stream_util::{change, event, existing, strict_id};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::StreamDelta;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    // Redis checks every id before it deletes any.
    let ids = (2..args.len()).map(|i| strict_id(args.get(i))).collect::<Result<Vec<_>, _>>()?;
    let key = args.get(1);
    let (deleted, lsn) = ctx.db().update(key, |slot| -> Result<i64, CmdError> {
        if existing(slot)?.is_none() {
            return Ok(0);
        }
        Ok(ids.iter().filter(|id| change(slot, StreamDelta::Del(**id))).count() as i64)
    })?;
    ctx.wrote(lsn);
    let deleted = deleted?;
    if deleted > 0 {
        event(ctx, key, "xdel");
    }
    ctx.reply.int(deleted);
    Ok(())
}
