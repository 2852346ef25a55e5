//! XADD key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT count]] *|id field value
//! [field value ...]: appends an entry (logged as the entry, not the stream) and replies its id.

use super::stream_util::{node_entries, apply_trim, change, event, existing, parse_id, parse_trim, reply_id, stream_of};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Entry, Stream, StreamDelta, StreamId, Value};
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (trim, idpos, nomkstream) = parse_trim(args, true, node_entries(ctx))?;
    let field_pos = idpos + 1;
    if args.len() < field_pos + 2 || (args.len() - field_pos) % 2 == 1 {
        return Err(CmdError::WrongArgs("xadd"));
    }
    // `*`: generated; `ms-*`: sequence generated; otherwise explicit.
    let given = if args.get(idpos) == b"*" { None } else { Some(parse_id(args.get(idpos), 0, true, true)?) };
    if given == Some((StreamId::MIN, true)) {
        return Err(CmdError::msg("ERR The ID specified in XADD must be greater than 0-0"));
    }
    let fields: Vec<(Bytes, Bytes)> =
        (field_pos..args.len()).step_by(2).map(|i| (Bytes::copy_from_slice(args.get(i)), Bytes::copy_from_slice(args.get(i + 1)))).collect();
    let key = args.get(1);
    let (outcome, lsn) = ctx.db().update(key, |slot| -> Result<Option<(StreamId, bool)>, CmdError> {
        if existing(slot)?.is_none() {
            if nomkstream {
                return Ok(None);
            }
            slot.put(Entry::new(Value::Stream(Box::default())));
        }
        let s: &Stream = stream_of(slot).expect("stream");
        let last = s.last_id;
        if last == StreamId::MAX {
            return Err(CmdError::msg("ERR The stream has exhausted the last possible ID, unable to add more items"));
        }
        let id = match given {
            Some((id, true)) => Some(id),
            Some((id, false)) if id.ms == last.ms => (last.seq < u64::MAX).then(|| StreamId::new(last.ms, last.seq + 1)),
            Some((id, false)) => Some(id),
            None => {
                let now = slot.now_ms();
                if now > last.ms { Some(StreamId::new(now, 0)) } else { last.next() }
            }
        };
        let id = match id {
            Some(id) if id > last => id,
            _ => return Err(CmdError::msg("ERR The ID specified in XADD is equal or smaller than the target stream top item")),
        };
        change(slot, StreamDelta::Add { id, fields });
        let trimmed = apply_trim(slot, &trim) > 0;
        Ok(Some((id, trimmed)))
    })?;
    ctx.wrote(lsn);
    match outcome? {
        None => ctx.reply.null(),
        Some((id, trimmed)) => {
            reply_id(ctx.reply, id);
            event(ctx, key, "xadd");
            if trimmed {
                event(ctx, key, "xtrim");
            }
        }
    }
    Ok(())
}
