//! Keyspace notifications (`notify-keyspace-events`): after a command changed keys, each change
//! is published over pub/sub as Redis does, on `__keyspace@<db>__:<key>` (payload: the event)
//! and/or `__keyevent@<db>__:<event>` (payload: the key).
//!
//! The store tells which keys a command created, changed or removed (`basalt_storage::KeyEvent`
//! through the hook installed here); the command's name says which event that was (`event_of`,
//! Redis 7.0's names). A key created fires `new` before its command's event; expired keys fire
//! `expired` at once (also from the background sweep); a key a command emptied gets the
//! command's event, then `del`. Basalt never
//! evicts keys (values beyond maxmemory move to disk), so `evicted` never fires. Commands
//! without an event here (FLUSHDB, SWAPDB, DEBUG ...) publish none, as in Redis.

use crate::pubsub::PubSub;
use crate::resp::Args;
use basalt_storage::{Db, KeyEvent};
use bytes::Bytes;
use std::cell::{Cell, RefCell};
use std::sync::atomic::Ordering::Relaxed;

/// Event classes and channel kinds, Redis' `NOTIFY_*` bits.
pub mod class {
    pub const KEYSPACE: u32 = 1 << 0;
    pub const KEYEVENT: u32 = 1 << 1;
    pub const GENERIC: u32 = 1 << 2;
    pub const STRING: u32 = 1 << 3;
    pub const LIST: u32 = 1 << 4;
    pub const SET: u32 = 1 << 5;
    pub const HASH: u32 = 1 << 6;
    pub const ZSET: u32 = 1 << 7;
    pub const EXPIRED: u32 = 1 << 8;
    pub const EVICTED: u32 = 1 << 9;
    pub const STREAM: u32 = 1 << 10;
    pub const KEY_MISS: u32 = 1 << 11;
    pub const MODULE: u32 = 1 << 12;
    pub const NEW: u32 = 1 << 13;
    /// `A`: every class but key-miss and new.
    pub const ALL: u32 = GENERIC | STRING | LIST | SET | HASH | ZSET | EXPIRED | EVICTED | STREAM | MODULE;
}

/// The class letters in the order Redis prints them.
const LETTERS: &[(u8, u32)] = &[
    (b'g', class::GENERIC),
    (b'$', class::STRING),
    (b'l', class::LIST),
    (b's', class::SET),
    (b'h', class::HASH),
    (b'z', class::ZSET),
    (b'x', class::EXPIRED),
    (b'e', class::EVICTED),
    (b't', class::STREAM),
    (b'd', class::MODULE),
    (b'n', class::NEW),
];

/// Parses a `notify-keyspace-events` value (Redis' `keyspaceEventsStringToFlags`); None for
/// an unknown letter.
pub fn parse(value: &str) -> Option<u32> {
    let mut flags = 0;
    for b in value.bytes() {
        flags |= match b {
            b'A' => class::ALL,
            b'K' => class::KEYSPACE,
            b'E' => class::KEYEVENT,
            b'm' => class::KEY_MISS,
            other => LETTERS.iter().find(|(l, _)| *l == other)?.1,
        };
    }
    Some(flags)
}

/// The value CONFIG GET shows (Redis' `keyspaceEventsFlagsToString`).
pub fn format(flags: u32) -> String {
    let mut out = String::new();
    if flags & class::ALL == class::ALL {
        out.push('A');
    } else {
        for &(letter, bit) in LETTERS {
            if flags & bit != 0 {
                out.push(letter as char);
            }
        }
    }
    for (letter, bit) in [('K', class::KEYSPACE), ('E', class::KEYEVENT), ('m', class::KEY_MISS)] {
        if flags & bit != 0 {
            out.push(letter);
        }
    }
    out
}

/// Publishes one event if its class is enabled (Redis' `notifyKeyspaceEvent`).
pub fn publish(pubsub: &PubSub, class: u32, event: &str, key: &[u8], db: usize) {
    let flags = pubsub.keyspace_events.load(Relaxed);
    if flags & class == 0 {
        return;
    }
    if flags & class::KEYSPACE != 0 {
        let mut channel = format!("__keyspace@{db}__:").into_bytes();
        channel.extend_from_slice(key);
        pubsub.publish(&channel, event.as_bytes());
    }
    if flags & class::KEYEVENT != 0 {
        pubsub.publish(format!("__keyevent@{db}__:{event}").as_bytes(), key);
    }
}

thread_local! {
    /// How deep this thread is in running commands (EXEC and scripts run commands inside one).
    static IN_COMMAND: Cell<usize> = const { Cell::new(0) };
    /// Keys the running command created, changed or removed, in order.
    static CHANGES: RefCell<Vec<(usize, Bytes, KeyEvent)>> = const { RefCell::new(Vec::new()) };
    /// Events the running command named itself (streams: one command may fire several, such
    /// as `xadd` then `xtrim`), published after its created/removed keys.
    static NAMED: RefCell<Vec<(usize, Bytes, u32, &'static str)>> = const { RefCell::new(Vec::new()) };
}

/// Tells of an event the running command names itself (class and name as Redis fires it);
/// kept only while some notification is enabled.
pub fn named(pubsub: &PubSub, db: usize, key: &[u8], class: u32, event: &'static str) {
    if pubsub.keyspace_events.load(Relaxed) & class != 0 && IN_COMMAND.with(Cell::get) > 0 {
        NAMED.with(|n| n.borrow_mut().push((db, Bytes::copy_from_slice(key), class, event)));
    }
}

/// Sets `notify-keyspace-events`; the first time anything is enabled the store gets the hook.
pub fn configure(db: &Db, pubsub: &PubSub, flags: u32) {
    pubsub.keyspace_events.store(flags, Relaxed);
    if flags != 0 {
        let pubsub = pubsub.clone();
        db.set_key_events(Box::new(move |db, key, event| on_key_event(&pubsub, db, key, event)));
    }
}

/// The store's hook: `expired` is published at once; a command's changes are kept for
/// `after_command` (only on the thread running a command, so the sweep keeps nothing).
fn on_key_event(pubsub: &PubSub, db: usize, key: &[u8], event: KeyEvent) {
    let flags = pubsub.keyspace_events.load(Relaxed);
    if flags & (class::KEYSPACE | class::KEYEVENT) == 0 {
        return;
    }
    if event == KeyEvent::Expired {
        publish(pubsub, class::EXPIRED, "expired", key, db);
    } else if IN_COMMAND.with(Cell::get) > 0 {
        CHANGES.with(|c| c.borrow_mut().push((db, Bytes::copy_from_slice(key), event)));
    }
}

/// Marks the start of a command on this thread; `after_command` ends it.
pub fn before_command() {
    IN_COMMAND.with(|d| d.set(d.get() + 1));
}

/// Publishes the events of the command that just ran (`fullname` as the registry names it)
/// and forgets its changes.
pub fn after_command(pubsub: &PubSub, fullname: &str, args: &Args<'_>) {
    IN_COMMAND.with(|d| d.set(d.get().saturating_sub(1)));
    let mut changes = CHANGES.with(|c| std::mem::take(&mut *c.borrow_mut()));
    let named = NAMED.with(|n| std::mem::take(&mut *n.borrow_mut()));
    if changes.is_empty() && named.is_empty() {
        return;
    }
    let is_source = |key: &[u8]| args.len() > 1 && args.get(1) == key;
    if matches!(fullname, "rpoplpush" | "brpoplpush" | "lmove" | "blmove") {
        // Redis pushes onto the destination before it tells of the pop.
        changes.sort_by_key(|(_, key, _)| is_source(key));
    }
    // RENAME and MOVE add the new key before they tell of either side.
    let new_first = matches!(fullname, "rename" | "renamenx" | "move");
    if new_first {
        for (db, key, _) in changes.iter().filter(|(_, _, e)| *e == KeyEvent::Created) {
            publish(pubsub, class::NEW, "new", key, *db);
        }
    }
    for (db, key, event) in changes {
        if event == KeyEvent::Created && !new_first {
            publish(pubsub, class::NEW, "new", &key, db);
        }
        let named = event_of(fullname, args, is_source(&key), event);
        if let Some((class, name)) = named {
            if !(event == KeyEvent::Removed && name == "del") {
                publish(pubsub, class, name, &key, db);
            }
        }
        if event != KeyEvent::Removed && sets_expiry(fullname, args) {
            publish(pubsub, class::GENERIC, "expire", &key, db);
        }
        let own_removal = matches!(named, Some((_, "rename_from" | "move_from")));
        if event == KeyEvent::Removed && !own_removal {
            publish(pubsub, class::GENERIC, "del", &key, db);
        }
    }
    for (db, key, class, event) in named {
        publish(pubsub, class, event, &key, db);
    }
}

/// SETEX, PSETEX and SET with EX/PX/EXAT/PXAT also tell of the expiry they set.
fn sets_expiry(fullname: &str, args: &Args<'_>) -> bool {
    match fullname {
        "setex" | "psetex" => true,
        "set" => args.iter().skip(3).any(|a| ["ex", "px", "exat", "pxat"].iter().any(|o| a.eq_ignore_ascii_case(o.as_bytes()))),
        _ => false,
    }
}

/// The first argument among `args` from `from` on that is one of `names` (a direction).
fn direction(args: &Args<'_>, from: usize, names: &[&str]) -> Option<usize> {
    (from..args.len()).rev().find_map(|i| names.iter().position(|n| args.get(i).eq_ignore_ascii_case(n.as_bytes())))
}

/// Redis 7.0's event for a key a command changed: (class, name). `source` says the key is the
/// command's first argument (for commands that move between two keys); a key that was removed
/// gets only `del` from commands that do not pop or remove elements.
fn event_of(fullname: &str, args: &Args<'_>, source: bool, event: KeyEvent) -> Option<(u32, &'static str)> {
    use class::*;
    let elementwise = |class: u32, name: &'static str| Some((class, name));
    let whole = |class: u32, name: &'static str| if event == KeyEvent::Removed { None } else { Some((class, name)) };
    match fullname {
        "set" | "setnx" | "setex" | "psetex" | "getset" | "mset" | "msetnx" => whole(STRING, "set"),
        "append" => whole(STRING, "append"),
        "incr" | "incrby" | "decr" | "decrby" => whole(STRING, "incrby"),
        "incrbyfloat" => whole(STRING, "incrbyfloat"),
        "setrange" => whole(STRING, "setrange"),
        "setbit" => whole(STRING, "setbit"),
        "bitop" => whole(STRING, "set"),
        "getex" => whole(GENERIC, if args.iter().skip(2).any(|a| a.eq_ignore_ascii_case(b"persist")) { "persist" } else { "expire" }),
        "del" | "unlink" | "getdel" => Some((GENERIC, "del")),
        "expire" | "pexpire" | "expireat" | "pexpireat" => whole(GENERIC, "expire"),
        "persist" => whole(GENERIC, "persist"),
        "rename" | "renamenx" => Some((GENERIC, if source { "rename_from" } else { "rename_to" })),
        "move" => Some((GENERIC, if event == KeyEvent::Removed { "move_from" } else { "move_to" })),
        "copy" => whole(GENERIC, "copy_to"),
        "restore" => whole(GENERIC, "restore"),
        "sort" => whole(LIST, "sortstore"),
        "lpush" | "lpushx" => elementwise(LIST, "lpush"),
        "rpush" | "rpushx" => elementwise(LIST, "rpush"),
        "lpop" | "blpop" => elementwise(LIST, "lpop"),
        "rpop" | "brpop" => elementwise(LIST, "rpop"),
        "linsert" => elementwise(LIST, "linsert"),
        "lset" => elementwise(LIST, "lset"),
        "ltrim" => elementwise(LIST, "ltrim"),
        "lrem" => elementwise(LIST, "lrem"),
        "rpoplpush" | "brpoplpush" => elementwise(LIST, if source { "rpop" } else { "lpush" }),
        "lmove" | "blmove" => {
            let (wherefrom, whereto) = (args.get(3), args.get(4));
            let left = |a: &[u8]| a.eq_ignore_ascii_case(b"left");
            elementwise(LIST, match (source, left(wherefrom), left(whereto)) {
                (true, true, _) => "lpop",
                (true, false, _) => "rpop",
                (false, _, true) => "lpush",
                (false, _, false) => "rpush",
            })
        }
        "lmpop" | "blmpop" => elementwise(LIST, if direction(args, 2, &["left", "right"]) == Some(0) { "lpop" } else { "rpop" }),
        "hset" | "hsetnx" | "hmset" => elementwise(HASH, "hset"),
        "hincrby" => elementwise(HASH, "hincrby"),
        "hincrbyfloat" => elementwise(HASH, "hincrbyfloat"),
        "hdel" => elementwise(HASH, "hdel"),
        "sadd" => elementwise(SET, "sadd"),
        "srem" => elementwise(SET, "srem"),
        "spop" => elementwise(SET, "spop"),
        "smove" => elementwise(SET, if source { "srem" } else { "sadd" }),
        "sinterstore" => whole(SET, "sinterstore"),
        "sunionstore" => whole(SET, "sunionstore"),
        "sdiffstore" => whole(SET, "sdiffstore"),
        "zadd" => elementwise(ZSET, if args.iter().skip(2).any(|a| a.eq_ignore_ascii_case(b"incr")) { "zincr" } else { "zadd" }),
        "zincrby" => elementwise(ZSET, "zincr"),
        "zrem" => elementwise(ZSET, "zrem"),
        "zremrangebyscore" => elementwise(ZSET, "zremrangebyscore"),
        "zremrangebyrank" => elementwise(ZSET, "zremrangebyrank"),
        "zremrangebylex" => elementwise(ZSET, "zremrangebylex"),
        "zpopmin" | "bzpopmin" => elementwise(ZSET, "zpopmin"),
        "zpopmax" | "bzpopmax" => elementwise(ZSET, "zpopmax"),
        "zmpop" | "bzmpop" => elementwise(ZSET, if direction(args, 2, &["min", "max"]) == Some(0) { "zpopmin" } else { "zpopmax" }),
        "zunionstore" => whole(ZSET, "zunionstore"),
        "zinterstore" => whole(ZSET, "zinterstore"),
        "zdiffstore" => whole(ZSET, "zdiffstore"),
        "zrangestore" => whole(ZSET, "zrangestore"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_read_and_print_as_redis() {
        for (set, shown) in [("gKE", "gKE"), ("$lshzxeKE", "$lshzxeKE"), ("KA", "AK"), ("EA", "AE"), ("", ""), ("KEA", "AKE"), ("En", "nE")] {
            assert_eq!(format(parse(set).unwrap()), shown, "{set}");
        }
        assert_eq!(parse("Kq"), None);
    }
}
