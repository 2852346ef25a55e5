//! XACK key group id [id ...]: removes entries from the group's pending entries list; replies
//! how many were there.

use super::stream_util::{b, change, existing, strict_id};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::StreamDelta;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (key, group) = (args.get(1), args.get(2));
    let (acked, lsn) = ctx.db().update(key, |slot| -> Result<i64, CmdError> {
        match existing(slot)? {
            Some(s) if s.groups.contains_key(group) => {}
            _ => return Ok(0),
        }
        // All ids are checked before any is acknowledged, as Redis does.
        let ids = (3..args.len()).map(|j| strict_id(args.get(j))).collect::<Result<Vec<_>, _>>()?;
        Ok(ids.into_iter().filter(|id| change(slot, StreamDelta::PelDel { group: b(group), id: *id })).count() as i64)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(acked?);
    Ok(())
}
