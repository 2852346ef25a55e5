//! XCLAIM key group consumer min-idle-time id [id ...] [IDLE ms] [TIME unix-ms] [RETRYCOUNT n]
//! [FORCE] [JUSTID] [LASTID id]: gives pending entries idle for at least min-idle-time to
//! `consumer`; replies the claimed entries (or ids), as Redis 7.0's `xclaimCommand`.

use super::stream_util::{b, change, event, nogroup, parse_id, reply_entry, reply_id, stream_of, strict_id, touch_consumer};
use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::number::parse_i64;
use crate::resp::Args;
use basalt_storage::{Fields, StreamDelta, StreamId, Value};

fn int_or(arg: &[u8], text: &str) -> Result<i64, CmdError> {
    parse_i64(arg).ok_or_else(|| CmdError::msg(format!("ERR {text}")))
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (key, group, name) = (args.get(1), args.get(2), args.get(3));
    match ctx.db().read(key, |e| e.map(|e| matches!(&e.value, Value::Stream(s) if s.groups.contains_key(group))))? {
        Some(true) => {}
        Some(false) if ctx.db().kind(key) != Some(basalt_storage::Kind::Stream) => return Err(CmdError::WrongType),
        _ => return Err(nogroup(key, group, "")),
    }
    let min_idle = int_or(args.get(4), "Invalid min-idle-time argument for XCLAIM")?.max(0);
    let mut ids = Vec::new();
    let mut j = 5;
    while j < args.len() {
        match parse_id(args.get(j), 0, true, false) {
            Ok((id, _)) => ids.push(id),
            Err(_) => break,
        }
        j += 1;
    }
    let now = basalt_storage::now_ms() as i64;
    let (mut force, mut justid) = (false, false);
    let mut delivery: Option<i64> = None;
    let mut retry: Option<i64> = None;
    let mut last_id = StreamId::MIN;
    while j < args.len() {
        let more = j + 1 < args.len();
        let opt = args.get(j);
        if is(opt, "force") {
            force = true;
        } else if is(opt, "justid") {
            justid = true;
        } else if is(opt, "idle") && more {
            j += 1;
            delivery = Some(now - int_or(args.get(j), "Invalid IDLE option argument for XCLAIM")?);
        } else if is(opt, "time") && more {
            j += 1;
            delivery = Some(int_or(args.get(j), "Invalid TIME option argument for XCLAIM")?);
        } else if is(opt, "retrycount") && more {
            j += 1;
            retry = Some(int_or(args.get(j), "Invalid RETRYCOUNT option argument for XCLAIM")?);
        } else if is(opt, "lastid") && more {
            j += 1;
            last_id = strict_id(args.get(j))?;
        } else {
            return Err(CmdError::msg(format!("ERR Unrecognized XCLAIM option '{}'", String::from_utf8_lossy(opt))));
        }
        j += 1;
    }
    let delivery = match delivery {
        Some(t) if t >= 0 && t <= now => t,
        _ => now,
    } as u64;
    let ((claimed, created), lsn) = ctx.db().update(key, |slot| {
        let mut claimed: Vec<(StreamId, Option<Fields>)> = Vec::new();
        let mut created = false;
        let Some(s) = stream_of(slot) else { return (claimed, created) };
        let Some(g) = s.groups.get(group) else { return (claimed, created) };
        if last_id > g.last_id {
            let entries_read = g.entries_read;
            change(slot, StreamDelta::GroupSet { group: b(group), last_id, entries_read });
        }
        let mut consumer_ready = false;
        for id in &ids {
            let s = stream_of(slot).expect("stream");
            let g = &s.groups[group];
            let pending = g.pel.get(id).cloned();
            let Some(fields) = s.entries.get(id).cloned() else {
                if pending.is_some() {
                    change(slot, StreamDelta::PelDel { group: b(group), id: *id });
                }
                continue;
            };
            if pending.is_none() && !force {
                continue;
            }
            if let Some(p) = &pending {
                if min_idle != 0 && (now - p.delivery_ms as i64) < min_idle {
                    continue;
                }
            }
            if !consumer_ready {
                created |= touch_consumer(slot, group, name);
                consumer_ready = true;
            }
            let old_count = pending.map_or(0, |p| p.delivery_count);
            let count = match retry {
                Some(n) => n as u64,
                None if !justid => old_count + 1,
                None => old_count,
            };
            change(slot, StreamDelta::PelSet { group: b(group), id: *id, consumer: b(name), delivery_ms: delivery, count });
            claimed.push((*id, (!justid).then_some(fields)));
        }
        (claimed, created)
    })?;
    ctx.wrote(lsn);
    ctx.reply.array(claimed.len());
    for (id, fields) in &claimed {
        match fields {
            Some(f) => reply_entry(ctx.reply, *id, f),
            None => reply_id(ctx.reply, *id),
        }
    }
    if created {
        event(ctx, key, "xgroup-createconsumer");
    }
    Ok(())
}
