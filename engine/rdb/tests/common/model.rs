//! The canonical contents of a store, built from a Redis through RESP or from a Basalt data
//! dir through basalt-storage, so the two compare with `==`: every key of every database with
//! its value (collections in a fixed order, scores as f64) and its absolute expiry in ms.

use super::resp::{Conn, Resp};
use basalt_storage::{Db, Value};
use std::collections::{BTreeMap, BTreeSet};

pub type Model = BTreeMap<(u64, Vec<u8>), (Canon, Option<u64>)>;

#[derive(Debug, Clone, PartialEq)]
pub enum Canon {
    Str(Vec<u8>),
    List(Vec<Vec<u8>>),
    Set(BTreeSet<Vec<u8>>),
    /// (member, score bits), in member order.
    ZSet(BTreeMap<Vec<u8>, u64>),
    Hash(BTreeMap<Vec<u8>, Vec<u8>>),
    Stream(CanonStream),
}

#[derive(Debug, Clone, PartialEq)]
pub struct CanonStream {
    pub entries: Vec<(String, Vec<(Vec<u8>, Vec<u8>)>)>,
    pub last_id: String,
    pub max_deleted_id: String,
    pub entries_added: i64,
    pub groups: Vec<CanonGroup>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CanonGroup {
    pub name: Vec<u8>,
    pub last_id: String,
    /// -1 when unknown (Redis answers nil).
    pub entries_read: i64,
    /// (id, consumer, delivery ms, delivery count)
    pub pel: Vec<(String, Vec<u8>, u64, u64)>,
    /// (name, seen ms, pending ids)
    pub consumers: Vec<(Vec<u8>, u64, Vec<String>)>,
}

fn score_bits(s: f64) -> u64 {
    (if s == 0.0 { 0.0f64 } else { s }).to_bits()
}

/// Everything a Redis holds in databases `0..databases`.
pub fn from_redis(c: &mut Conn, databases: u64) -> Model {
    let mut model = Model::new();
    for db in 0..databases {
        c.ok(&["SELECT", &db.to_string()]).unwrap();
        let mut cursor = "0".to_string();
        loop {
            let page = c.cmd(&["SCAN", &cursor, "COUNT", "1000"]);
            cursor = page.items()[0].text();
            for key in page.items()[1].items() {
                let key = key.bytes();
                let canon = redis_value(c, &key);
                let at = c.cmd(&[b"PEXPIRETIME".as_slice(), &key]).int();
                model.insert((db, key), (canon, (at >= 0).then_some(at as u64)));
            }
            if cursor == "0" {
                break;
            }
        }
    }
    c.ok(&["SELECT", "0"]).unwrap();
    model
}

fn redis_value(c: &mut Conn, key: &[u8]) -> Canon {
    let ty = c.cmd(&[b"TYPE".as_slice(), key]).text();
    let all = |r: Resp| r.items().iter().map(Resp::bytes).collect::<Vec<_>>();
    match ty.as_str() {
        "string" => Canon::Str(c.cmd(&[b"GET".as_slice(), key]).bytes()),
        "list" => Canon::List(all(c.cmd(&[b"LRANGE".as_slice(), key, b"0", b"-1"]))),
        "set" => Canon::Set(all(c.cmd(&[b"SMEMBERS".as_slice(), key])).into_iter().collect()),
        "zset" => {
            let flat = all(c.cmd(&[b"ZRANGE".as_slice(), key, b"0", b"-1", b"WITHSCORES"]));
            Canon::ZSet(
                flat.chunks_exact(2)
                    .map(|p| (p[0].clone(), score_bits(String::from_utf8_lossy(&p[1]).parse::<f64>().unwrap())))
                    .collect(),
            )
        }
        "hash" => {
            let flat = all(c.cmd(&[b"HGETALL".as_slice(), key]));
            Canon::Hash(flat.chunks_exact(2).map(|p| (p[0].clone(), p[1].clone())).collect())
        }
        "stream" => Canon::Stream(redis_stream(c, key)),
        other => panic!("type {other}"),
    }
}

fn redis_stream(c: &mut Conn, key: &[u8]) -> CanonStream {
    let info = c.cmd(&[b"XINFO".as_slice(), b"STREAM", key, b"FULL", b"COUNT", b"0"]);
    let entries = info
        .field("entries")
        .items()
        .iter()
        .map(|e| {
            let fields = e.items()[1].items().chunks_exact(2).map(|p| (p[0].bytes(), p[1].bytes())).collect();
            (e.items()[0].text(), fields)
        })
        .collect();
    let mut groups: Vec<CanonGroup> = info
        .field("groups")
        .items()
        .iter()
        .map(|g| {
            let entries_read = g.field("entries-read");
            let pel = g
                .field("pending")
                .items()
                .iter()
                .map(|p| {
                    let p = p.items();
                    (p[0].text(), p[1].bytes(), p[2].int() as u64, p[3].int() as u64)
                })
                .collect();
            let mut consumers: Vec<(Vec<u8>, u64, Vec<String>)> = g
                .field("consumers")
                .items()
                .iter()
                .map(|cons| {
                    let ids = cons.field("pending").items().iter().map(|p| p.items()[0].text()).collect();
                    (cons.field("name").bytes(), cons.field("seen-time").int() as u64, ids)
                })
                .collect();
            consumers.sort();
            CanonGroup {
                name: g.field("name").bytes(),
                last_id: g.field("last-delivered-id").text(),
                entries_read: if entries_read.is_nil() { -1 } else { entries_read.int() },
                pel,
                consumers,
            }
        })
        .collect();
    groups.sort_by(|a, b| a.name.cmp(&b.name));
    CanonStream {
        entries,
        last_id: info.field("last-generated-id").text(),
        max_deleted_id: info.field("max-deleted-entry-id").text(),
        entries_added: info.field("entries-added").int(),
        groups,
    }
}

/// Everything a Basalt store holds, read through its public API.
pub fn from_basalt(db: &Db) -> Model {
    let mut model = Model::new();
    for index in 0..db.databases() {
        let ks = db.keyspace(index);
        let mut cursor = 0;
        loop {
            let page = ks.scan(cursor, 1000);
            for (key, _) in page.keys {
                let entry = ks.read(&key, |e| e.cloned()).unwrap().unwrap();
                model.insert((index as u64, key.to_vec()), (basalt_value(&entry.value), entry.expires_at_ms));
            }
            cursor = page.cursor;
            if cursor == 0 {
                break;
            }
        }
    }
    model
}

fn basalt_value(v: &Value) -> Canon {
    match v {
        Value::Str(s) => Canon::Str(s.to_vec()),
        Value::List(l) => Canon::List(l.iter().map(|e| e.to_vec()).collect()),
        Value::Set(s) => Canon::Set(s.iter().map(|e| e.to_vec()).collect()),
        Value::ZSet(z) => Canon::ZSet(z.iter().map(|(m, s)| (m.to_vec(), score_bits(s))).collect()),
        Value::Hash(h) => Canon::Hash(h.iter().map(|(f, v)| (f.to_vec(), v.to_vec())).collect()),
        Value::Stream(s) => Canon::Stream(CanonStream {
            entries: s
                .entries
                .iter()
                .map(|(id, f)| (id.to_string(), f.iter().map(|(a, b)| (a.to_vec(), b.to_vec())).collect()))
                .collect(),
            last_id: s.last_id.to_string(),
            max_deleted_id: s.max_deleted_id.to_string(),
            entries_added: s.entries_added as i64,
            groups: s
                .groups
                .iter()
                .map(|(name, g)| {
                    let mut consumers: Vec<(Vec<u8>, u64, Vec<String>)> = g
                        .consumers
                        .iter()
                        .map(|(n, c)| (n.to_vec(), c.seen_ms, c.pending.iter().map(|i| i.to_string()).collect()))
                        .collect();
                    consumers.sort();
                    CanonGroup {
                        name: name.to_vec(),
                        last_id: g.last_id.to_string(),
                        entries_read: g.entries_read,
                        pel: g
                            .pel
                            .iter()
                            .map(|(id, p)| (id.to_string(), p.consumer.to_vec(), p.delivery_ms, p.delivery_count))
                            .collect(),
                        consumers,
                    }
                })
                .collect(),
        }),
    }
}
