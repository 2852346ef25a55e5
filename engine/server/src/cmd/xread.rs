//! XREAD [COUNT n] [BLOCK ms] STREAMS key [key ...] id [id ...] and XREADGROUP GROUP group
//! consumer [COUNT n] [BLOCK ms] [NOACK] STREAMS key [key ...] id|> [...]: entries after the
//! given ids, as Redis 7.0's `xreadCommand`. XREADGROUP with `>` delivers new entries to the
//! consumer (the group's last id and read counter move, the entries join its pending list,
//! unless NOACK); with an id it replays the consumer's own pending entries.
//!
//! BLOCK waits through the blocking machinery (`blocking.rs`) on the stream keys and runs the
//! command again after each change; `$` is resolved once, at the first run, into the id it
//! stood for (the rerun arguments carry that id), so entries added meanwhile are not missed.

use super::stream_util::{b, change, count_arg, event, existing, nogroup, reply_entry, reply_id, stream_of, strict_id, touch_consumer};
use super::{arg_i64, is, Ctx};
use crate::blocking::BlockRequest;
use crate::error::{CmdError, CmdResult};
use crate::resp::{Args, OwnedArgs};
use basalt_storage::{Fields, StreamDelta, StreamId, Value};
use bytes::Bytes;
use std::time::{Duration, Instant};

/// Entries served from one stream: (id, fields; None for a pending entry no longer in the stream).
type Served = Vec<(StreamId, Option<Fields>)>;

/// What each stream argument asks for.
#[derive(Clone, Copy, PartialEq)]
enum From {
    /// Entries after this id.
    After(StreamId),
    /// `$`: after the stream's last id at the first run.
    Last,
    /// `>`: entries never delivered to the group.
    New,
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    read(ctx, args, false)
}

/// XREAD and XREADGROUP (`group`).
pub fn read(ctx: &mut Ctx<'_>, args: Args<'_>, xreadgroup: bool) -> CmdResult {
    let mut timeout: Option<i64> = None;
    let mut count: u64 = 0;
    let mut streams_at = 0;
    let mut group: Option<(&[u8], &[u8])> = None;
    let mut noack = false;
    let mut i = 1;
    while i < args.len() {
        let more = args.len() - i - 1;
        let o = args.get(i);
        if is(o, "block") && more > 0 {
            // Scripts run alone (EVAL holds the run lock), so a running script is this caller.
            if ctx.shared.scripts.running() {
                let name = String::from_utf8_lossy(args.get(0)).into_owned();
                return Err(CmdError::msg(format!("ERR {name} command is not allowed with BLOCK option from scripts")));
            }
            i += 1;
            let t = arg_i64(args.get(i)).map_err(|_| CmdError::msg("ERR timeout is not an integer or out of range"))?;
            if t < 0 {
                return Err(CmdError::msg("ERR timeout is negative"));
            }
            timeout = Some(t);
        } else if is(o, "count") && more > 0 {
            i += 1;
            count = count_arg(args.get(i))?;
        } else if is(o, "streams") && more > 0 {
            streams_at = i + 1;
            if !(args.len() - streams_at).is_multiple_of(2) {
                return Err(CmdError::msg("ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified."));
            }
            break;
        } else if is(o, "group") && more >= 2 {
            if !xreadgroup {
                return Err(CmdError::msg("ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead."));
            }
            group = Some((args.get(i + 1), args.get(i + 2)));
            i += 2;
        } else if is(o, "noack") {
            if !xreadgroup {
                return Err(CmdError::msg("ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead."));
            }
            noack = true;
        } else {
            return Err(CmdError::Syntax);
        }
        i += 1;
    }
    if streams_at == 0 {
        return Err(CmdError::Syntax);
    }
    if xreadgroup && group.is_none() {
        return Err(CmdError::msg("ERR Missing GROUP option for XREADGROUP"));
    }
    let n = (args.len() - streams_at) / 2;
    let keys: Vec<&[u8]> = (0..n).map(|k| args.get(streams_at + k)).collect();
    let mut froms = Vec::with_capacity(n);
    for (k, key) in keys.iter().enumerate() {
        let arg = args.get(streams_at + n + k);
        if let (Some(_), true) = (group, ctx.session.woken) {
            // Woken by a change of the key: Redis unblocks a consumer whose stream or group went.
            let (stream, has_group) = ctx.db().read(key, |e| match e.map(|e| &e.value) {
                Some(Value::Stream(s)) => (true, group.is_some_and(|(g, _)| s.groups.contains_key(g))),
                _ => (false, false),
            })?;
            if !stream {
                return Err(CmdError::msg("UNBLOCKED the stream key no longer exists"));
            }
            if !has_group {
                return Err(CmdError::msg("NOGROUP the consumer group this client was blocked on no longer exists"));
            }
        }
        // Type and group are checked before the id, as Redis does.
        let (is_stream_or_missing, has_group) = ctx.db().read(key, |e| match e.map(|e| &e.value) {
            None => (true, false),
            Some(Value::Stream(s)) => (true, group.is_some_and(|(g, _)| s.groups.contains_key(g))),
            Some(_) => (false, false),
        })?;
        if !is_stream_or_missing {
            return Err(CmdError::WrongType);
        }
        if let Some((g, _)) = group {
            if !has_group {
                return Err(nogroup(key, g, " in XREADGROUP with GROUP option"));
            }
        }
        froms.push(if arg == b"$" {
            if xreadgroup {
                return Err(CmdError::msg("ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the history of this consumer by specifying a proper ID, or use the > ID to get new messages. The $ ID would just return an empty result set."));
            }
            From::Last
        } else if arg == b">" {
            if !xreadgroup {
                return Err(CmdError::msg("ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option."));
            }
            From::New
        } else {
            From::After(strict_id(arg)?)
        });
    }
    // Woken without COUNT, at most 1000 entries per stream, as Redis (an old id must not make a
    // wake-up serve a huge backlog).
    let count = if count == 0 && ctx.session.woken { 1000 } else { count };
    let mut served: Vec<(&[u8], Served)> = Vec::new();
    let mut resolved: Vec<StreamId> = Vec::with_capacity(n);
    for (key, from) in keys.iter().zip(&froms) {
        let (result, lsn) = match group {
            None => (serve_plain(ctx, key, *from, count)?, 0),
            Some((g, consumer)) => serve_group(ctx, key, g, consumer, *from, count, noack)?,
        };
        ctx.wrote(lsn);
        let (entries, last) = result;
        resolved.push(last);
        if let Some(entries) = entries {
            served.push((key, entries));
        }
    }
    if !served.is_empty() {
        let resp3 = ctx.reply.resp3;
        if resp3 {
            ctx.reply.map(served.len());
        } else {
            ctx.reply.array(served.len());
        }
        for (key, entries) in &served {
            if !resp3 {
                ctx.reply.array(2);
            }
            ctx.reply.bulk(key);
            ctx.reply.array(entries.len());
            for (id, fields) in entries {
                match fields {
                    Some(f) => reply_entry(ctx.reply, *id, f),
                    None => {
                        ctx.reply.array(2);
                        reply_id(ctx.reply, *id);
                        ctx.reply.null_array();
                    }
                }
            }
        }
        return Ok(());
    }
    match timeout {
        Some(ms) if ctx.can_block() => {
            let db = ctx.session.db;
            let deadline = (ms > 0).then(|| Instant::now() + Duration::from_millis(ms as u64));
            ctx.block = Some(BlockRequest { keys: keys.iter().map(|k| (db, Bytes::copy_from_slice(k))).collect(), deadline });
            if froms.contains(&From::Last) {
                let mut again = OwnedArgs::new();
                for (j, arg) in args.iter().enumerate() {
                    match j.checked_sub(streams_at + n) {
                        Some(k) if froms[k] == From::Last => again.push(resolved[k].to_string().as_bytes()),
                        _ => again.push(arg),
                    }
                }
                ctx.session.blocked_rerun = Some(again);
            }
        }
        _ => ctx.reply.null_array(),
    }
    Ok(())
}

/// XREAD of one stream: (entries if any, the id `$` stood for).
fn serve_plain(ctx: &Ctx<'_>, key: &[u8], from: From, count: u64) -> Result<(Option<Served>, StreamId), CmdError> {
    Ok(ctx.db().read(key, |e| {
        let Some(Value::Stream(s)) = e.map(|e| &e.value) else { return (None, StreamId::MIN) };
        let after = match from {
            From::After(id) => id,
            _ => s.last_id,
        };
        let entries: Served = match after.next() {
            Some(start) => s.entries.range(start..).take(if count == 0 { usize::MAX } else { count as usize }).map(|(i, f)| (*i, Some(f.clone()))).collect(),
            None => Vec::new(),
        };
        ((!entries.is_empty()).then_some(entries), s.last_id)
    })?)
}

/// XREADGROUP of one stream, inside one update of its key.
#[allow(clippy::type_complexity)]
fn serve_group(
    ctx: &Ctx<'_>,
    key: &[u8],
    group: &[u8],
    consumer: &[u8],
    from: From,
    count: u64,
    noack: bool,
) -> Result<((Option<Served>, StreamId), basalt_storage::Lsn), CmdError> {
    let limit = if count == 0 { usize::MAX } else { count as usize };
    let (result, lsn) = ctx.db().update(key, |slot| -> Result<(Option<Served>, bool), CmdError> {
        let Some(s) = existing(slot)? else { return Err(nogroup(key, group, " in XREADGROUP with GROUP option")) };
        let Some(g) = s.groups.get(group) else { return Err(nogroup(key, group, " in XREADGROUP with GROUP option")) };
        match from {
            From::After(after) => {
                // History: the consumer's own pending entries after `after`.
                let created = touch_consumer(slot, group, consumer);
                let s = stream_of(slot).expect("stream");
                let g = &s.groups[group];
                let ids: Vec<StreamId> = match (g.consumers.get(consumer), after.next()) {
                    (Some(c), Some(start)) => c.pending.range(start..).take(limit).copied().collect(),
                    _ => Vec::new(),
                };
                let now = slot.now_ms();
                let mut out = Vec::with_capacity(ids.len());
                for id in ids {
                    let s = stream_of(slot).expect("stream");
                    match s.entries.get(&id).cloned() {
                        Some(fields) => {
                            let count = s.groups[group].pel[&id].delivery_count + 1;
                            change(slot, StreamDelta::PelSet { group: b(group), id, consumer: b(consumer), delivery_ms: now, count });
                            out.push((id, Some(fields)));
                        }
                        None => out.push((id, None)),
                    }
                }
                Ok((Some(out), created))
            }
            _ => {
                let top = s.entries.keys().next_back().copied();
                if top.is_none_or(|top| top <= g.last_id) {
                    return Ok((None, false));
                }
                let created = touch_consumer(slot, group, consumer);
                let s = stream_of(slot).expect("stream");
                let g = &s.groups[group];
                let start = g.last_id.next().expect("an id above it exists");
                let picked: Vec<(StreamId, Fields)> = s.entries.range(start..).take(limit).map(|(i, f)| (*i, f.clone())).collect();
                let now = slot.now_ms();
                let mut out = Vec::with_capacity(picked.len());
                for (id, fields) in picked {
                    let s = stream_of(slot).expect("stream");
                    let g = &s.groups[group];
                    let entries_read = if g.entries_read != basalt_storage::ENTRIES_READ_UNKNOWN && !s.range_has_tombstones(id, StreamId::MAX) {
                        g.entries_read + 1
                    } else if s.entries_added > 0 {
                        s.estimate_entries_read(id)
                    } else {
                        g.entries_read
                    };
                    change(slot, StreamDelta::GroupSet { group: b(group), last_id: id, entries_read });
                    if !noack {
                        change(slot, StreamDelta::PelSet { group: b(group), id, consumer: b(consumer), delivery_ms: now, count: 1 });
                    }
                    out.push((id, Some(fields)));
                }
                Ok((Some(out), created))
            }
        }
    })?;
    let (served, created) = result?;
    if created {
        event(ctx, key, "xgroup-createconsumer");
    }
    Ok(((served, StreamId::MIN), lsn))
}
