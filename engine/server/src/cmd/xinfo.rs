//! XINFO STREAM key [FULL [COUNT n]] | GROUPS key | CONSUMERS key group | HELP: what a stream
//! holds, as Redis 7.0's `xinfoCommand`. `radix-tree-keys`/`-nodes` describe Redis' own
//! layout, which Basalt does not have: they count nodes of 100 entries (Redis' default
//! `stream-node-max-entries`), the figure Redis shows for a stream filled by XADD.

use super::stream_util::{reply_entry, reply_id, NODE_ENTRIES};
use super::{arg_i64, help_reply, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::{Args, Reply};
use basalt_storage::{Group, Stream, Value, ENTRIES_READ_UNKNOWN};

const HELP: &[&str] = &[
    "XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "CONSUMERS <key> <groupname>",
    "    Show consumers of <groupname>.",
    "GROUPS <key>",
    "    Show the stream consumer groups.",
    "STREAM <key> [FULL [COUNT <count>]",
    "    Show information about the stream.",
    "HELP",
    "    Prints this help.",
];

fn syntax(args: &Args<'_>) -> CmdError {
    CmdError::bad_subcommand("XINFO", args.get(1))
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    if is(args.get(1), "help") {
        if args.len() != 2 {
            return Err(syntax(&args));
        }
        return help_reply(ctx, HELP);
    }
    if args.len() < 3 {
        return Err(syntax(&args));
    }
    let db = ctx.db();
    let reply = &mut *ctx.reply;
    let now = basalt_storage::now_ms() as i64;
    let key = args.get(2);
    db.read(key, |e| -> CmdResult {
        let s = match e.map(|e| &e.value) {
            None => return Err(CmdError::NoSuchKey),
            Some(Value::Stream(s)) => s,
            Some(_) => return Err(CmdError::WrongType),
        };
        let sub = args.get(1);
        if is(sub, "consumers") && args.len() == 4 {
            let g = s.groups.get(args.get(3)).ok_or_else(|| {
                CmdError::msg(format!(
                    "NOGROUP No such consumer group '{}' for key name '{}'",
                    String::from_utf8_lossy(args.get(3)),
                    String::from_utf8_lossy(key)
                ))
            })?;
            reply.array(g.consumers.len());
            for (name, c) in &g.consumers {
                reply.map(3);
                reply.bulk(b"name");
                reply.bulk(name);
                reply.bulk(b"pending");
                reply.int(c.pending.len() as i64);
                reply.bulk(b"idle");
                reply.int((now - c.seen_ms as i64).max(0));
            }
        } else if is(sub, "groups") && args.len() == 3 {
            reply.array(s.groups.len());
            for (name, g) in &s.groups {
                reply.map(6);
                reply.bulk(b"name");
                reply.bulk(name);
                reply.bulk(b"consumers");
                reply.int(g.consumers.len() as i64);
                reply.bulk(b"pending");
                reply.int(g.pel.len() as i64);
                group_counters(reply, s, g);
            }
        } else if is(sub, "stream") {
            stream_info(reply, s, &args)?;
        } else {
            return Err(syntax(&args));
        }
        Ok(())
    })?
}

/// `last-delivered-id`, `entries-read` and `lag` of a group.
fn group_counters(reply: &mut Reply, s: &Stream, g: &Group) {
    reply.bulk(b"last-delivered-id");
    reply_id(reply, g.last_id);
    reply.bulk(b"entries-read");
    if g.entries_read == ENTRIES_READ_UNKNOWN {
        reply.null();
    } else {
        reply.int(g.entries_read);
    }
    reply.bulk(b"lag");
    match s.lag(g) {
        Some(lag) => reply.int(lag),
        None => reply.null(),
    }
}

fn stream_info(reply: &mut Reply, s: &Stream, args: &Args<'_>) -> CmdResult {
    let opts = args.len() - 3;
    let mut count: i64 = 10;
    let full = opts > 0;
    if full {
        if (opts != 1 && opts != 3) || !is(args.get(3), "full") {
            return Err(syntax(args));
        }
        if opts == 3 {
            if !is(args.get(4), "count") {
                return Err(syntax(args));
            }
            count = arg_i64(args.get(5))?;
            if count < 0 {
                count = 10;
            }
        }
    }
    let limit = if count == 0 { usize::MAX } else { count as usize };
    reply.map(if full { 9 } else { 10 });
    reply.bulk(b"length");
    reply.int(s.len() as i64);
    let nodes = s.len().div_ceil(NODE_ENTRIES as usize) as i64;
    reply.bulk(b"radix-tree-keys");
    reply.int(nodes);
    reply.bulk(b"radix-tree-nodes");
    reply.int(nodes + 1);
    reply.bulk(b"last-generated-id");
    reply_id(reply, s.last_id);
    reply.bulk(b"max-deleted-entry-id");
    reply_id(reply, s.max_deleted_id);
    reply.bulk(b"entries-added");
    reply.int(s.entries_added as i64);
    reply.bulk(b"recorded-first-entry-id");
    reply_id(reply, s.first_id().unwrap_or_default());
    if !full {
        reply.bulk(b"groups");
        reply.int(s.groups.len() as i64);
        for (name, edge) in [(&b"first-entry"[..], s.entries.iter().next()), (b"last-entry", s.entries.iter().next_back())] {
            reply.bulk(name);
            match edge {
                Some((id, fields)) => reply_entry(reply, *id, fields),
                None => reply.null(),
            }
        }
        return Ok(());
    }
    reply.bulk(b"entries");
    let shown: Vec<_> = s.entries.iter().take(limit).collect();
    reply.array(shown.len());
    for (id, fields) in shown {
        reply_entry(reply, *id, fields);
    }
    reply.bulk(b"groups");
    reply.array(s.groups.len());
    for (name, g) in &s.groups {
        reply.map(7);
        reply.bulk(b"name");
        reply.bulk(name);
        group_counters(reply, s, g);
        reply.bulk(b"pel-count");
        reply.int(g.pel.len() as i64);
        reply.bulk(b"pending");
        let pel: Vec<_> = g.pel.iter().take(limit).collect();
        reply.array(pel.len());
        for (id, p) in pel {
            reply.array(4);
            reply_id(reply, *id);
            reply.bulk(&p.consumer);
            reply.int(p.delivery_ms as i64);
            reply.int(p.delivery_count as i64);
        }
        reply.bulk(b"consumers");
        reply.array(g.consumers.len());
        for (cname, c) in &g.consumers {
            reply.map(4);
            reply.bulk(b"name");
            reply.bulk(cname);
            reply.bulk(b"seen-time");
            reply.int(c.seen_ms as i64);
            reply.bulk(b"pel-count");
            reply.int(c.pending.len() as i64);
            reply.bulk(b"pending");
            let mine: Vec<_> = c.pending.iter().take(limit).collect();
            reply.array(mine.len());
            for id in mine {
                let p = &g.pel[id];
                reply.array(3);
                reply_id(reply, *id);
                reply.int(p.delivery_ms as i64);
                reply.int(p.delivery_count as i64);
            }
        }
    }
    Ok(())
}
