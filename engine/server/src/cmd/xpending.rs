//! XPENDING key group [[IDLE min-idle] start end count [consumer]]: the group's pending
//! entries, as a summary (count, lowest and highest id, consumers with counts) or one row per
//! entry (id, owner, ms since delivery, deliveries).

use super::stream_util::{count_arg, interval_id, nogroup, reply_id};
use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{StreamId, Value};
use bytes::Bytes;

/// What the command replies, gathered under the key's lock.
enum Pending {
    Summary { count: usize, range: Option<(StreamId, StreamId)>, consumers: Vec<(Bytes, usize)> },
    Rows(Vec<(StreamId, Bytes, i64, u64)>),
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let argc = args.len();
    if argc != 3 && !(6..=9).contains(&argc) {
        return Err(CmdError::Syntax);
    }
    let mut range = None;
    let mut consumer: Option<&[u8]> = None;
    let mut min_idle = 0i64;
    if argc >= 6 {
        let mut at = 3;
        if is(args.get(3), "idle") {
            min_idle = arg_i64(args.get(4))?;
            if argc < 8 {
                return Err(CmdError::Syntax);
            }
            at += 2;
        }
        let count = count_arg(args.get(at + 2))?;
        let (mut start, start_ex) = interval_id(args.get(at), 0)?;
        if start_ex {
            start = start.next().ok_or_else(|| CmdError::msg("ERR invalid start ID for the interval"))?;
        }
        let (mut end, end_ex) = interval_id(args.get(at + 1), u64::MAX)?;
        if end_ex {
            end = end.prev().ok_or_else(|| CmdError::msg("ERR invalid end ID for the interval"))?;
        }
        if at + 3 < argc {
            consumer = Some(args.get(at + 3));
        }
        range = Some((start, end, count));
    }
    let (key, group) = (args.get(1), args.get(2));
    let now = basalt_storage::now_ms() as i64;
    let out = ctx.db().read(key, |e| -> Result<Pending, CmdError> {
        let s = match e.map(|e| &e.value) {
            Some(Value::Stream(s)) => s,
            Some(_) => return Err(CmdError::WrongType),
            None => return Err(nogroup(key, group, "")),
        };
        let g = s.groups.get(group).ok_or_else(|| nogroup(key, group, ""))?;
        let Some((start, end, count)) = range else {
            let range = g.pel.keys().next().map(|first| (*first, *g.pel.keys().next_back().unwrap()));
            let consumers = g.consumers.iter().filter(|(_, c)| !c.pending.is_empty()).map(|(n, c)| (n.clone(), c.pending.len())).collect();
            return Ok(Pending::Summary { count: g.pel.len(), range, consumers });
        };
        let ids: Box<dyn Iterator<Item = &StreamId>> = match consumer {
            Some(name) => match g.consumers.get(name) {
                Some(c) => Box::new(c.pending.iter()),
                None => return Ok(Pending::Rows(Vec::new())),
            },
            None => Box::new(g.pel.keys()),
        };
        let mut rows = Vec::new();
        if start > end {
            return Ok(Pending::Rows(rows));
        }
        for id in ids.skip_while(|id| **id < start).take_while(|id| **id <= end) {
            if rows.len() as u64 >= count {
                break;
            }
            let p = &g.pel[id];
            let idle = now - p.delivery_ms as i64;
            if min_idle != 0 && idle < min_idle {
                continue;
            }
            rows.push((*id, p.consumer.clone(), idle.max(0), p.delivery_count));
        }
        Ok(Pending::Rows(rows))
    })??;
    let reply = &mut *ctx.reply;
    match out {
        Pending::Summary { count, range, consumers } => {
            reply.array(4);
            reply.int(count as i64);
            match range {
                None => {
                    reply.null();
                    reply.null();
                    reply.null_array();
                }
                Some((first, last)) => {
                    reply_id(reply, first);
                    reply_id(reply, last);
                    reply.array(consumers.len());
                    for (name, n) in consumers {
                        reply.array(2);
                        reply.bulk(&name);
                        reply.bulk_i64(n as i64);
                    }
                }
            }
        }
        Pending::Rows(rows) => {
            reply.array(rows.len());
            for (id, owner, idle, count) in rows {
                reply.array(4);
                reply_id(reply, id);
                reply.bulk(&owner);
                reply.int(idle);
                reply.int(count as i64);
            }
        }
    }
    Ok(())
}
