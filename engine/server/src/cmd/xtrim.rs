//! XTRIM key MAXLEN|MINID [=|~] threshold [LIMIT count]: trims the oldest entries; replies how
//! many went.

use super::stream_util::{node_entries, apply_trim, event, existing, parse_trim};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let key = args.get(1);
    let (trim, _, _) = parse_trim(args, false, node_entries(ctx))?;
    let (trimmed, lsn) = ctx.db().update(key, |slot| -> Result<i64, CmdError> {
        if existing(slot)?.is_none() {
            return Ok(0);
        }
        Ok(apply_trim(slot, &trim))
    })?;
    ctx.wrote(lsn);
    let trimmed = trimmed?;
    if trimmed > 0 {
        event(ctx, key, "xtrim");
    }
    ctx.reply.int(trimmed);
    Ok(())
}
