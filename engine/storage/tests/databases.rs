//! Recovery scenario: logical databases across reopens. A log from before databases existed
//! opens as database 0 and new records mix with it; SWAPDB, MOVE and FLUSHDB replay to the
//! same state; compaction after a SWAPDB keeps each value in the database it moved to.

mod common;
use basalt_storage::{Db, Fsync, Options};
use common::*;
use std::time::{Duration, Instant};

/// A record as the log stored it before databases (and flags) existed.
fn old_record(key: &[u8], value: &[u8]) -> Vec<u8> {
    let mut payload = 1u32.to_le_bytes().to_vec();
    payload.push(1);
    payload.extend_from_slice(&(key.len() as u32).to_le_bytes());
    payload.extend_from_slice(key);
    payload.extend_from_slice(&0u64.to_le_bytes());
    payload.extend_from_slice(&(value.len() as u32 + 1).to_le_bytes());
    payload.push(0);
    payload.extend_from_slice(value);
    let mut rec = Vec::new();
    let len = (payload.len() as u32).to_le_bytes();
    let mut crc_input = len.to_vec();
    crc_input.extend_from_slice(&payload);
    rec.extend_from_slice(&crc32fast::hash(&crc_input).to_le_bytes());
    rec.extend_from_slice(&len);
    rec.extend_from_slice(&payload);
    rec
}

#[test]
fn old_log_opens_as_database_0() {
    let dir = TempDir::new("db-old-log");
    std::fs::create_dir_all(dir.path()).unwrap();
    std::fs::write(dir.path().join("wal-0000000001.log"), old_record(b"old", b"from before")).unwrap();
    for round in 0..3 {
        let db = open(dir.path(), Fsync::Always);
        assert_eq!(get_in(&db, 0, "old").as_deref(), Some("from before"), "round {round}");
        assert_eq!(get_in(&db, 1, "old"), None, "round {round}");
        if round == 0 {
            put_in(&db, 1, "new", "in one");
        }
        assert_eq!(get_in(&db, 1, "new").as_deref(), Some("in one"), "round {round}");
        assert_eq!(db.keyspace(0).len(), 1);
    }
}

#[test]
fn swap_move_flush_replay() {
    let dir = TempDir::new("db-replay");
    {
        let db = open(dir.path(), Fsync::Always);
        put_in(&db, 0, "k", "zero");
        put_in(&db, 1, "k", "one");
        put_in(&db, 2, "gone", "x");
        db.keyspace(2).flush().unwrap();
        assert!(db.move_key(b"k", 1, 7).unwrap().0);
        assert!(!db.move_key(b"k", 0, 7).unwrap().0, "the target holds the key");
        db.swap_db(0, 15).unwrap();
        db.sync().unwrap();
    }
    let db = Db::open(Options::new(dir.path()).fsync(Fsync::Always)).unwrap();
    assert_eq!(get_in(&db, 15, "k").as_deref(), Some("zero"));
    assert_eq!(get_in(&db, 0, "k"), None);
    assert_eq!(get_in(&db, 7, "k").as_deref(), Some("one"));
    assert_eq!(get_in(&db, 2, "gone"), None);
    drop(db);
    // A log naming database 15 does not open with fewer databases.
    assert!(Db::open(Options::new(dir.path()).databases(4)).is_err());
}

#[test]
fn compaction_after_swapdb_keeps_values_in_place() {
    let dir = TempDir::new("db-compact");
    let opts = || {
        Options::new(dir.path())
            .fsync(Fsync::EverySec)
            .segment_bytes(64 * 1024)
            .compact_min_bytes(256 * 1024)
            .maxmemory(64 * 1024)
    };
    let value = |i: u32| format!("v{i}-{}", "s".repeat(300));
    {
        let db = Db::open(opts()).unwrap();
        for i in 0..100 {
            put_in(&db, 3, &format!("keep:{i}"), &value(i));
        }
        db.swap_db(3, 9).unwrap();
        // Churn so that the oldest segments, holding the swapped values, get compacted.
        for i in 0..3000 {
            put_in(&db, 0, &format!("churn:{}", i % 50), &"c".repeat(300));
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while db.stats().compactions < 2 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(db.stats().compactions >= 2, "{:?}", db.stats());
        for i in 0..100 {
            assert_eq!(get_in(&db, 9, &format!("keep:{i}")), Some(value(i)));
        }
        db.sync().unwrap();
    }
    let db = Db::open(opts()).unwrap();
    for i in 0..100 {
        assert_eq!(get_in(&db, 9, &format!("keep:{i}")), Some(value(i)), "keep:{i} after reopen");
        assert_eq!(get_in(&db, 3, &format!("keep:{i}")), None);
    }
}
