//! XAUTOCLAIM key group consumer min-idle-time start [COUNT n] [JUSTID]: claims up to `n`
//! pending entries idle long enough, from `start` on; replies [next start, claimed entries,
//! ids of pending entries no longer in the stream (removed from the PEL)].

use super::stream_util::{b, change, event, interval_id, nogroup, reply_entry, reply_id, stream_of, touch_consumer};
use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::number::parse_i64;
use crate::resp::Args;
use basalt_storage::{Fields, StreamDelta, StreamId, Value};

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (key, group, name) = (args.get(1), args.get(2), args.get(3));
    let min_idle = parse_i64(args.get(4)).ok_or_else(|| CmdError::msg("ERR Invalid min-idle-time argument for XAUTOCLAIM"))?.max(0);
    let (mut start, start_ex) = interval_id(args.get(5), 0)?;
    if start_ex {
        start = start.next().ok_or_else(|| CmdError::msg("ERR invalid start ID for the interval"))?;
    }
    let mut count: i64 = 100;
    let mut justid = false;
    let mut j = 6;
    while j < args.len() {
        if is(args.get(j), "count") && j + 1 < args.len() {
            count = match parse_i64(args.get(j + 1)) {
                Some(n) if (1..=i64::MAX / 10).contains(&n) => n,
                _ => return Err(CmdError::msg("ERR COUNT must be > 0")),
            };
            j += 1;
        } else if is(args.get(j), "justid") {
            justid = true;
        } else {
            return Err(CmdError::Syntax);
        }
        j += 1;
    }
    match ctx.db().read(key, |e| e.map(|e| match &e.value {
        Value::Stream(s) => Ok(s.groups.contains_key(group)),
        _ => Err(CmdError::WrongType),
    }))? {
        Some(Ok(true)) => {}
        Some(Err(e)) => return Err(e),
        _ => return Err(nogroup(key, group, "")),
    }
    let now = basalt_storage::now_ms() as i64;
    let (out, lsn) = ctx.db().update(key, |slot| {
        let mut claimed: Vec<(StreamId, Option<Fields>)> = Vec::new();
        let mut deleted = Vec::new();
        let mut created = false;
        let Some(s) = stream_of(slot) else { return (claimed, deleted, StreamId::MIN, created) };
        let Some(g) = s.groups.get(group) else { return (claimed, deleted, StreamId::MIN, created) };
        let ids: Vec<StreamId> = g.pel.range(start..).map(|(id, _)| *id).collect();
        let mut attempts = count.saturating_mul(10);
        let mut left = count;
        let mut consumer_ready = false;
        let mut next = StreamId::MIN;
        let mut it = ids.into_iter().peekable();
        while attempts > 0 && left > 0 {
            let Some(id) = it.next() else { break };
            attempts -= 1;
            let s = stream_of(slot).expect("stream");
            let p = s.groups[group].pel[&id].clone();
            let Some(fields) = s.entries.get(&id).cloned() else {
                change(slot, StreamDelta::PelDel { group: b(group), id });
                deleted.push(id);
                left -= 1;
                continue;
            };
            if min_idle != 0 && now - (p.delivery_ms as i64) < min_idle {
                continue;
            }
            if !consumer_ready {
                created |= touch_consumer(slot, group, name);
                consumer_ready = true;
            }
            let count = if justid { p.delivery_count } else { p.delivery_count + 1 };
            change(slot, StreamDelta::PelSet { group: b(group), id, consumer: b(name), delivery_ms: now as u64, count });
            claimed.push((id, (!justid).then_some(fields)));
            left -= 1;
        }
        if let Some(id) = it.next() {
            next = id;
        }
        (claimed, deleted, next, created)
    })?;
    ctx.wrote(lsn);
    let (claimed, deleted, next, created) = out;
    ctx.reply.array(3);
    reply_id(ctx.reply, next);
    ctx.reply.array(claimed.len());
    for (id, fields) in &claimed {
        match fields {
            Some(f) => reply_entry(ctx.reply, *id, f),
            None => reply_id(ctx.reply, *id),
        }
    }
    ctx.reply.array(deleted.len());
    for id in deleted {
        reply_id(ctx.reply, id);
    }
    if created {
        event(ctx, key, "xgroup-createconsumer");
    }
    Ok(())
}
