//! XSETID key last-id [ENTRIESADDED n] [MAXDELETEDID id]: sets the stream's counters (as
//! Redis 7.0: the last id may not go below the top entry).

use super::stream_util::{change, event, existing, strict_id};
use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::StreamDelta;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let id = strict_id(args.get(2))?;
    let mut entries_added: Option<u64> = None;
    let mut max_deleted = None;
    let mut i = 3;
    while i < args.len() {
        let more = i + 1 < args.len();
        if is(args.get(i), "entriesadded") && more {
            let n = arg_i64(args.get(i + 1))?;
            if n < 0 {
                return Err(CmdError::msg("ERR entries_added must be positive"));
            }
            entries_added = Some(n as u64);
        } else if is(args.get(i), "maxdeletedid") && more {
            let m = strict_id(args.get(i + 1))?;
            if id < m {
                return Err(CmdError::msg("ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id"));
            }
            max_deleted = Some(m);
        } else {
            return Err(CmdError::Syntax);
        }
        i += 2;
    }
    let key = args.get(1);
    let (done, lsn) = ctx.db().update(key, |slot| -> Result<(), CmdError> {
        let s = existing(slot)?.ok_or(CmdError::NoSuchKey)?;
        if let Some(top) = s.entries.keys().next_back() {
            if id < *top {
                return Err(CmdError::msg("ERR The ID specified in XSETID is smaller than the target stream top item"));
            }
            if entries_added.is_some_and(|n| (s.len() as u64) > n) {
                return Err(CmdError::msg("ERR The entries_added specified in XSETID is smaller than the target stream length"));
            }
        }
        let d = StreamDelta::SetMeta {
            last_id: id,
            entries_added: entries_added.unwrap_or(s.entries_added),
            max_deleted_id: max_deleted.filter(|m| !m.is_zero()).unwrap_or(s.max_deleted_id),
        };
        change(slot, d);
        Ok(())
    })?;
    ctx.wrote(lsn);
    done?;
    ctx.reply.ok();
    event(ctx, key, "xsetid");
    Ok(())
}
