//! Recovery scenario: memcached flags (`Entry::flags`) are logged with their value. They come
//! back at reopen, for values read cold from disk and after compaction copies their records;
//! a log written before flags existed opens with flags 0; a value without flags costs no byte
//! more than before.

mod common;
use basalt_storage::{Db, Entry, Fsync, Options, Value};
use bytes::Bytes;
use common::*;
use std::time::{Duration, Instant};

fn put(db: &Db, key: &str, value: &str, flags: u32) {
    let ((), lsn) = db
        .update(key.as_bytes(), |s| {
            s.put(Entry::new(Value::Str(Bytes::from(value.to_string()))).with_flags(flags));
        })
        .unwrap();
    db.wait_durable_blocking(lsn).unwrap();
}

/// (value, flags) of `key`.
fn item(db: &Db, key: &str) -> Option<(String, u32)> {
    db.read(key.as_bytes(), |e| {
        e.map(|e| match &e.value {
            Value::Str(b) => (String::from_utf8(b.to_vec()).unwrap(), e.flags),
            other => panic!("{key}: not a string: {other:?}"),
        })
    })
    .unwrap()
}

/// One log record in the format of the crate docs: `crc32 | len | nops | ops`.
fn record(nops: u32, ops: &[u8]) -> Vec<u8> {
    let mut payload = nops.to_le_bytes().to_vec();
    payload.extend_from_slice(ops);
    framed(payload)
}


#[test]
fn old_log_reads_flags_0_and_new_records_mix_with_it() {
    let dir = TempDir::new("flags-old-log");
    let mut log = record(1, &old_put(b"old", b"from before"));
    log.extend(record(1, &old_put(b"later", b"x")));
    std::fs::write(dir.path().join("wal-0000000001.log"), &log).unwrap();
    for round in 0..3 {
        let db = open(dir.path(), Fsync::Always);
        assert_eq!(item(&db, "old"), Some(("from before".into(), 0)), "round {round}");
        if round == 0 {
            assert_eq!(item(&db, "later"), Some(("x".into(), 0)));
            put(&db, "later", "y", 42);
        } else {
            assert_eq!(item(&db, "later"), Some(("y".into(), 42)), "round {round}");
        }
    }
}

#[test]
fn flags_cost_five_bytes_and_no_flags_cost_nothing() {
    let dir = TempDir::new("flags-size");
    let db = open(dir.path(), Fsync::Always);
    let base = db.stats().log_bytes;
    put(&db, "k", "v", 0);
    // The record the format had before flags (what `old_put` builds), with the segment head
    // op (18 bytes) the first record of a segment carries since log format 2.
    let plain = db.stats().log_bytes - base - 18;
    assert_eq!(plain, record(1, &old_put(b"k", b"v")).len() as u64);
    put(&db, "k", "v", 7);
    // 5 bytes of flags, and a time op (9 bytes) if the millisecond changed.
    let flagged = db.stats().log_bytes - base - 18 - plain;
    assert!(flagged == plain + 5 || flagged == plain + 5 + 9, "{flagged} vs {plain}");
}

#[test]
fn flags_survive_reopen_cold_reads_and_compaction() {
    let dir = TempDir::new("flags-compact");
    let opts = || {
        Options::new(dir.path())
            .fsync(Fsync::EverySec)
            .segment_bytes(64 * 1024)
            .compact_min_bytes(256 * 1024)
            .maxmemory(64 * 1024)
    };
    let value = |i: u32| format!("item-{i}-{}", "q".repeat(300));
    {
        let db = Db::open(opts()).unwrap();
        for i in 0..200 {
            put(&db, &format!("item:{i}"), &value(i), i * 7919);
        }
        // Overwrite one key until the items' segments are mostly dead and get compacted.
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut n = 0;
        while db.stats().compactions < 3 {
            assert!(Instant::now() < deadline, "no compaction: {:?}", db.stats());
            put(&db, "churn", &format!("{n}-{}", "c".repeat(1000)), 0);
            n += 1;
            if n % 500 == 0 {
                std::thread::sleep(Duration::from_millis(200));
            }
        }
        assert!(!segments(dir.path()).iter().any(|p| p.ends_with("wal-0000000001.log")), "segment 1 compacted");
        for i in 0..200 {
            assert_eq!(item(&db, &format!("item:{i}")), Some((value(i), i * 7919)), "before reopen: item:{i}");
        }
        assert!(db.stats().cache_misses > 100, "values were read cold: {:?}", db.stats());
    }
    let db = Db::open(opts()).unwrap();
    for i in 0..200 {
        assert_eq!(item(&db, &format!("item:{i}")), Some((value(i), i * 7919)), "after reopen: item:{i}");
    }
    assert!(db.stats().cache_misses > 100, "values were read cold after reopen: {:?}", db.stats());
}
