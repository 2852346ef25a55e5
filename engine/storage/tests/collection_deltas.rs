//! Element-level changes of collections (delta records, `Slot::apply`): random HSET/HDEL,
//! LPUSH/RPUSH/LPOP/RPOP, SADD/SREM and ZADD/ZREM against a model, through compaction of
//! small segments, values evicted beyond `maxmemory` (read back as put + deltas), reopens, and
//! encryption at rest; a transaction of deltas cut anywhere leaves none of it; a growing
//! collection writes bytes per change, not per element held.

mod common;
use basalt_storage::{Cipher, Db, Delta, Entry, Fsync, Options, Value};
use bytes::Bytes;
use common::*;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn b(s: &str) -> Bytes {
    Bytes::copy_from_slice(s.as_bytes())
}

/// Applies `change` to `key`, creating the collection `empty` when missing, and waits until
/// it may be acknowledged (as HSET/LPUSH/SADD/ZADD do).
fn change(db: &Db, key: &str, empty: fn() -> Value, change: Delta) {
    let ((), lsn) = db
        .update(key.as_bytes(), |s| {
            if s.get().is_none() {
                s.put(Entry::new(empty()));
            }
            s.apply(change).expect("a collection of the delta's type");
        })
        .unwrap();
    db.wait_durable_blocking(lsn).unwrap();
}

/// Like `change` but never creates (HDEL, LPOP, SREM, ZREM).
fn change_existing(db: &Db, key: &str, change: Delta) {
    let ((), lsn) = db
        .update(key.as_bytes(), |s| {
            s.apply(change);
        })
        .unwrap();
    db.wait_durable_blocking(lsn).unwrap();
}

fn hash() -> Value {
    Value::Hash(Box::default())
}
fn list() -> Value {
    Value::List(VecDeque::new())
}
fn set() -> Value {
    Value::Set(Box::default())
}
fn zset() -> Value {
    Value::ZSet(Box::default())
}

/// The model: what the four keys must hold (an emptied collection is no key at all).
#[derive(Default, Clone)]
struct Model {
    h: HashMap<Bytes, Bytes>,
    l: VecDeque<Bytes>,
    s: HashSet<Bytes>,
    z: HashMap<Bytes, f64>,
}

fn check(db: &Db, m: &Model, when: &str) {
    let got = |key: &str| db.read(key.as_bytes(), |e| e.map(|e| e.value.clone())).unwrap();
    match got("h") {
        None => assert!(m.h.is_empty(), "{when}: hash missing"),
        Some(Value::Hash(h)) => assert_eq!(*h, m.h, "{when}: hash"),
        Some(v) => panic!("{when}: h holds {:?}", v.kind()),
    }
    match got("l") {
        None => assert!(m.l.is_empty(), "{when}: list missing"),
        Some(Value::List(l)) => assert_eq!(l, m.l, "{when}: list"),
        Some(v) => panic!("{when}: l holds {:?}", v.kind()),
    }
    match got("s") {
        None => assert!(m.s.is_empty(), "{when}: set missing"),
        Some(Value::Set(s)) => assert_eq!(*s, m.s, "{when}: set"),
        Some(v) => panic!("{when}: s holds {:?}", v.kind()),
    }
    match got("z") {
        None => assert!(m.z.is_empty(), "{when}: zset missing"),
        Some(Value::ZSet(z)) => {
            let z: HashMap<Bytes, f64> = z.iter().map(|(k, s)| (k.clone(), s)).collect();
            assert_eq!(z, m.z, "{when}: zset");
        }
        Some(v) => panic!("{when}: z holds {:?}", v.kind()),
    }
}

/// One random step on the store and the model (xorshift, deterministic).
fn step(db: &Db, m: &mut Model, rng: &mut u64, i: usize) {
    let r = xorshift(rng);
    let member = b(&format!("m{}", r % 300));
    let value = b(&format!("{i}-{}", "v".repeat((r % 60) as usize)));
    // Grow more than shrink, so collections reach a few hundred elements and empty at times.
    match (r >> 20) % 10 {
        0..=1 => {
            change(db, "h", hash, Delta::HashSet(member.clone(), value.clone()));
            m.h.insert(member, value);
        }
        2 => {
            change_existing(db, "h", Delta::HashDel(member.clone()));
            m.h.remove(&member);
        }
        3 => {
            let left = r & 1 == 0;
            change(db, "l", list, Delta::ListPush { left, element: value.clone() });
            if left {
                m.l.push_front(value);
            } else {
                m.l.push_back(value);
            }
        }
        4 => {
            let left = r & 1 == 0;
            change_existing(db, "l", Delta::ListPop { left });
            if left {
                m.l.pop_front();
            } else {
                m.l.pop_back();
            }
        }
        5..=6 => {
            change(db, "s", set, Delta::SetAdd(member.clone()));
            m.s.insert(member);
        }
        7 => {
            change_existing(db, "s", Delta::SetRem(member.clone()));
            m.s.remove(&member);
        }
        8 => {
            let score = (r % 1000) as f64 / 7.0;
            change(db, "z", zset, Delta::ZAdd(member.clone(), score));
            m.z.insert(member, score);
        }
        _ => {
            change_existing(db, "z", Delta::ZRem(member.clone()));
            m.z.remove(&member);
        }
    }
}

fn random_changes_survive(cipher: Option<Arc<Cipher>>, name: &str) {
    let dir = TempDir::new(name);
    let opts = || {
        let o = Options::new(dir.path())
            .fsync(Fsync::No)
            .segment_bytes(64 * 1024)
            .compact_min_bytes(256 * 1024)
            .maxmemory(16 * 1024);
        o.cipher(cipher.clone())
    };
    let mut m = Model::default();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..4 {
        let db = Db::open(opts()).unwrap();
        check(&db, &m, &format!("{name} reopen {round}"));
        for i in 0..6000 {
            step(&db, &mut m, &mut rng, i);
            // Others' whole writes fill segments, so old ones are compacted while the four
            // collections still depend on delta ops in them.
            if i % 3 == 0 {
                let ((), _) = db
                    .update(format!("pad{}", i % 50).as_bytes(), |s| {
                        s.put(Entry::new(Value::Str(Bytes::from(vec![b'p'; 300]))));
                    })
                    .unwrap();
            }
            if i % 1500 == 0 {
                check(&db, &m, &format!("{name} round {round} step {i}"));
            }
        }
        check(&db, &m, &format!("{name} end of round {round}"));
        let deadline = Instant::now() + Duration::from_secs(10);
        while db.stats().compactions == 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let stats = db.stats();
        assert!(stats.compactions > 0, "{name} round {round}: no compaction ({stats:?})");
        assert!(stats.cache_misses > 0, "{name} round {round}: no value was read back cold ({stats:?})");
        check(&db, &m, &format!("{name} after compaction {round}"));
    }
    let db = Db::open(opts()).unwrap();
    check(&db, &m, &format!("{name} final reopen"));
}

#[test]
fn random_collection_changes_survive_compaction_eviction_and_reopen() {
    random_changes_survive(None, "deltas");
}

#[test]
fn random_collection_changes_survive_encrypted() {
    let dir = TempDir::new("deltas-key");
    let path = dir.path().join("key");
    std::fs::write(&path, format!("{}\n", "ab".repeat(32))).unwrap();
    let cipher = Arc::new(Cipher::from_key_file(&path).unwrap());
    random_changes_survive(Some(cipher), "deltas-enc");
}

#[test]
fn encrypted_deltas_hold_no_plaintext() {
    let dir = TempDir::new("deltas-sealed");
    let key = dir.path().join("key");
    std::fs::write(&key, format!("{}\n", "cd".repeat(32))).unwrap();
    let cipher = Arc::new(Cipher::from_key_file(&key).unwrap());
    let data = dir.path().join("data");
    {
        let db = Db::open(Options::new(&data).fsync(Fsync::Always).cipher(Some(cipher.clone()))).unwrap();
        change(&db, "secret-hash", hash, Delta::HashSet(b("first-field"), b("first-value")));
        change(&db, "secret-hash", hash, Delta::HashSet(b("plain-field"), b("plain-value")));
        change(&db, "secret-set", set, Delta::SetAdd(b("a")));
        change(&db, "secret-set", set, Delta::SetAdd(b("plain-member")));
    }
    let all: Vec<u8> = segments(&data).iter().flat_map(|p| std::fs::read(p).unwrap()).collect();
    for needle in ["plain-field", "plain-value", "plain-member", "secret-hash"] {
        assert!(!all.windows(needle.len()).any(|w| w == needle.as_bytes()), "{needle} in the clear");
    }
    let db = Db::open(Options::new(&data).fsync(Fsync::Always).cipher(Some(cipher))).unwrap();
    db.read(b"secret-hash", |e| match e.map(|e| &e.value) {
        Some(Value::Hash(h)) => assert_eq!(h.get(&b("plain-field")[..]), Some(&b("plain-value"))),
        other => panic!("{other:?}"),
    })
    .unwrap();
}

/// A transaction of delta changes to collections that exist before it, plus a string.
fn transaction(db: &Db) {
    let ((), lsn) = db
        .atomically(|| {
            for i in 0..10 {
                change(db, "h", hash, Delta::HashSet(b(&format!("tf{i}")), b("x")));
                change(db, "l", list, Delta::ListPush { left: false, element: b(&format!("te{i}")) });
                change_existing(db, "s", Delta::SetRem(b(&format!("m{i}"))));
            }
            put_in(db, 0, "tx-string", "done");
        })
        .unwrap();
    assert!(lsn > 0);
    db.wait_durable_blocking(lsn).unwrap();
}

/// 0 if none of the transaction is visible, 31 if all of it is.
fn visible(db: &Db) -> usize {
    let v = |k: &str| db.read(k.as_bytes(), |e| e.map(|e| e.value.clone())).unwrap();
    let mut n = 0;
    if let Some(Value::Hash(h)) = v("h") {
        n += (0..10).filter(|i| h.contains_key(format!("tf{i}").as_bytes())).count();
    }
    if let Some(Value::List(l)) = v("l") {
        n += l.iter().filter(|e| e.starts_with(b"te")).count();
    }
    if let Some(Value::Set(s)) = v("s") {
        n += (0..10).filter(|i| !s.contains(format!("m{i}").as_bytes())).count();
    }
    n + get(db, "tx-string").is_some() as usize
}

#[test]
fn a_torn_transaction_of_deltas_leaves_nothing() {
    let whole = TempDir::new("deltas-tx");
    let before;
    {
        let db = open(whole.path(), Fsync::Always);
        for i in 0..20 {
            change(&db, "h", hash, Delta::HashSet(b(&format!("f{i}")), b("v")));
            change(&db, "l", list, Delta::ListPush { left: true, element: b(&format!("e{i}")) });
            change(&db, "s", set, Delta::SetAdd(b(&format!("m{i}"))));
        }
        db.sync().unwrap();
        // Where the records end (one segment): the file may be longer while the store is open
        // (zeros written ahead under `always`, `Wal::zero_ahead`).
        before = db.stats().log_bytes;
        transaction(&db);
    }
    each_cut(whole.path(), before, |cut, db| assert_eq!(visible(db), 0, "cut at {cut} after {before}"));
    let db = open(whole.path(), Fsync::Always);
    assert_eq!(visible(&db), 31);
    // Read back cold: the values are the whole put plus the transaction's delta op.
    db.set_maxmemory(1);
    assert_eq!(visible(&db), 31);
    assert!(db.stats().cache_misses > 0);
}

/// Log bytes per change while a collection grows to `n` elements: checked every 10,000
/// changes, so a store that logs whole values fails within the first checks.
fn grow(name: &str, n: usize, empty: fn() -> Value, make: fn(usize) -> Delta) {
    let dir = TempDir::new(name);
    let db = open(dir.path(), Fsync::No);
    let start = db.stats().log_bytes;
    for i in 0..n {
        let ((), _) = db
            .update(b"big", |s| {
                if s.get().is_none() {
                    s.put(Entry::new(empty()));
                }
                s.apply(make(i));
            })
            .unwrap();
        if (i + 1) % 10_000 == 0 {
            let per_op = (db.stats().log_bytes - start) as f64 / (i + 1) as f64;
            // A change of ~16-byte elements is logged in ~50 bytes; a whole-value log would
            // be past 100 bytes per change after the first few hundred changes.
            assert!(per_op < 100.0, "{name}: {per_op:.1} log bytes per change after {} changes", i + 1);
        }
    }
    let elements = db.read(b"big", |e| e.map(|e| match &e.value {
        Value::Hash(h) => h.len(),
        Value::List(l) => l.len(),
        Value::Set(s) => s.len(),
        Value::ZSet(z) => z.len(),
        Value::Str(_) | Value::Stream(_) => 0,
    }))
    .unwrap();
    assert_eq!(elements, Some(n), "{name}");
}

const GROWTH: usize = 1_000_000;

#[test]
fn hash_grows_to_a_million_fields_at_the_cost_of_each_change() {
    grow("grow-hash", GROWTH, hash, |i| Delta::HashSet(b(&format!("field:{i:010}")), b("value-16-bytes!!")));
}

#[test]
fn list_grows_to_a_million_elements_at_the_cost_of_each_change() {
    grow("grow-list", GROWTH, list, |i| Delta::ListPush { left: i % 2 == 0, element: b(&format!("element:{i:010}")) });
}

#[test]
fn set_grows_to_a_million_members_at_the_cost_of_each_change() {
    grow("grow-set", GROWTH, set, |i| Delta::SetAdd(b(&format!("member:{i:010}"))));
}

#[test]
fn zset_grows_to_a_million_members_at_the_cost_of_each_change() {
    grow("grow-zset", GROWTH, zset, |i| Delta::ZAdd(b(&format!("member:{i:010}")), i as f64 * 0.5));
}

/// A hash updated at random (new fields and overwrites, as `redis-benchmark hset bighash
/// __rand_int__` does) is compacted like Redis rewrites its AOF: its delta ops count as live
/// for no more than they added to the hash (a fold writes each field once, without the ops'
/// framing), so once the log is past `compact_min_bytes` and twice that, compaction folds the
/// hash and drops the segments of its ops. Before, every op counted whole and the log kept
/// every one (3x Redis's AOF at 1,000,000 HSETs). Dropping the key leaves no live bytes.
#[test]
fn a_hash_updated_at_random_is_compacted_to_about_its_size() {
    let dir = TempDir::new("hash-compacted");
    let opts = || Options::new(dir.path()).fsync(Fsync::No).segment_bytes(64 * 1024).compact_min_bytes(256 * 1024);
    let db = Db::open(opts()).unwrap();
    let mut model: HashMap<Bytes, Bytes> = HashMap::new();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for i in 0..40_000 {
        let (f, v) = (b(&format!("{:012}", xorshift(&mut rng) % 20_000)), b(&format!("{i:025}")));
        model.insert(f.clone(), v.clone());
        change(&db, "big", hash, Delta::HashSet(f, v));
    }
    // What the hash takes logged whole: each field and value with its u32 length.
    let whole: u64 = model.iter().map(|(f, v)| 8 + f.len() + v.len()).sum::<usize>() as u64;
    let deadline = Instant::now() + Duration::from_secs(20);
    while db.stats().compaction_pending && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let stats = db.stats();
    assert!(stats.compactions > 0, "{stats:?}");
    assert!(!stats.compaction_pending, "still pending after 20 s: {stats:?}");
    assert!(stats.live_log_bytes <= whole + 4096, "live {} of a {whole}-byte hash: {stats:?}", stats.live_log_bytes);
    // Compaction stops at half live, with a sealed segment's and the active one's slack.
    assert!(stats.log_bytes <= 2 * whole + 3 * 64 * 1024, "log {} for a {whole}-byte hash: {stats:?}", stats.log_bytes);
    drop(db);
    let db = Db::open(opts()).unwrap();
    let held = db.read(b"big", |e| match e.map(|e| &e.value) {
        Some(Value::Hash(h)) => h.iter().map(|(f, v)| (f.clone(), v.clone())).collect::<HashMap<_, _>>(),
        _ => HashMap::new(),
    });
    assert_eq!(held.unwrap(), model);
    change(&db, "big", hash, Delta::HashSet(b("one"), b("more")));
    let ((), lsn) = db.update(b"big", |s| {
        s.remove();
    })
    .unwrap();
    db.wait_durable_blocking(lsn).unwrap();
    assert_eq!(db.stats().live_log_bytes, 0, "every live byte released with the key");
}
