//! Recovery scenario: logical databases across reopens. A log from before databases existed
//! opens as database 0 and new records mix with it; SWAPDB, MOVE and FLUSHDB replay to the
//! same state; compaction after a SWAPDB keeps each value in the database it moved to, and so
//! does compaction while SWAPDB runs again and again, after a reopen in which no connection
//! has used that database yet, and on a replica whose databases only the primary's records
//! filled and swapped.

mod common;
use basalt_storage::{Db, Fsync, Options};
use common::*;
use std::time::{Duration, Instant};

/// A record of one op naming databases: SELECT (op 4) of `a`, or SWAPDB (op 6) of `a` and `b`.
fn naming_record(op: u8, a: u32, b: Option<u32>) -> Vec<u8> {
    let mut payload = 1u32.to_le_bytes().to_vec();
    payload.push(op);
    payload.extend_from_slice(&a.to_le_bytes());
    if let Some(b) = b {
        payload.extend_from_slice(&b.to_le_bytes());
    }
    framed(payload)
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

/// Overwrites 50 keys of database 0 3,000 times (about 1 MB of log, most of it dead), then
/// waits for `n` compactions.
fn churn_until_compacted(db: &Db, n: u64) {
    for i in 0..3000 {
        put_in(db, 0, &format!("churn:{}", i % 50), &"c".repeat(300));
    }
    wait_for_compactions(db, n);
}

/// Waits up to 10 s for the store to have compacted `n` segments.
fn wait_for_compactions(db: &Db, n: u64) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while db.stats().compactions < n && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(db.stats().compactions >= n, "{:?}", db.stats());
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
        churn_until_compacted(&db, 2);
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

#[test]
fn compaction_while_swapdb_runs_keeps_every_value() {
    let dir = TempDir::new("db-compact-swapping");
    let opts = || Options::new(dir.path()).fsync(Fsync::EverySec).segment_bytes(64 * 1024).compact_min_bytes(256 * 1024);
    let value = |i: u32| format!("v{i}-{}", "s".repeat(300));
    let swaps;
    {
        let db = Db::open(opts()).unwrap();
        for i in 0..200 {
            put_in(&db, 1, &format!("one:{i}"), &value(i));
            put_in(&db, 2, &format!("two:{i}"), &value(i));
        }
        // Databases 1 and 2 trade places as fast as they can while churn in database 0 makes
        // compaction copy (or not) the records of both. The churn asks for stats after every
        // write, as INFO does: stats once held the segment list while waiting for the log
        // writer, and stopped the store when a segment began at that moment.
        let stop = std::sync::atomic::AtomicBool::new(false);
        swaps = std::thread::scope(|s| {
            let swapper = s.spawn(|| {
                let mut n = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    db.swap_db(1, 2).unwrap();
                    n += 1;
                }
                n
            });
            let deadline = Instant::now() + Duration::from_secs(20);
            let mut i = 0;
            while (db.stats().compactions < 6 || i < 6000) && Instant::now() < deadline {
                put_in(&db, 0, &format!("churn:{}", i % 50), &"c".repeat(300));
                i += 1;
            }
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            swapper.join().unwrap()
        });
        assert!(db.stats().compactions >= 6, "{:?}", db.stats());
        db.sync().unwrap();
    }
    let (ones, twos) = if swaps % 2 == 0 { (1, 2) } else { (2, 1) };
    let db = Db::open(opts()).unwrap();
    for i in 0..200 {
        assert_eq!(get_in(&db, ones, &format!("one:{i}")), Some(value(i)), "one:{i} after {swaps} swaps");
        assert_eq!(get_in(&db, twos, &format!("two:{i}")), Some(value(i)), "two:{i} after {swaps} swaps");
    }
}

#[test]
fn compaction_after_reopen_finds_values_of_a_database_not_used_since() {
    let dir = TempDir::new("db-compact-reopen");
    let opts = || Options::new(dir.path()).fsync(Fsync::EverySec).segment_bytes(64 * 1024).compact_min_bytes(256 * 1024);
    let value = |i: u32| format!("v{i}-{}", "s".repeat(300));
    {
        let db = Db::open(opts()).unwrap();
        for i in 0..100 {
            put_in(&db, 5, &format!("keep:{i}"), &value(i));
        }
        db.sync().unwrap();
    }
    {
        // Only database 0 is written after the reopen: database 5 is known from the log alone.
        let db = Db::open(opts()).unwrap();
        churn_until_compacted(&db, 2);
        db.sync().unwrap();
    }
    let db = Db::open(opts()).unwrap();
    for i in 0..100 {
        assert_eq!(get_in(&db, 5, &format!("keep:{i}")), Some(value(i)), "keep:{i}");
    }
}

#[test]
fn compaction_on_a_replica_finds_values_the_primary_swapped() {
    let (primary_dir, replica_dir) = (TempDir::new("db-compact-primary"), TempDir::new("db-compact-replica"));
    let opts = |dir: &TempDir| Options::new(dir.path()).fsync(Fsync::EverySec).segment_bytes(64 * 1024).compact_min_bytes(256 * 1024);
    let value = |i: u32| format!("v{i}-{}", "s".repeat(300));
    let records = std::sync::Arc::new(std::sync::Mutex::new(Vec::<Vec<u8>>::new()));
    {
        let primary = Db::open(opts(&primary_dir)).unwrap();
        let seen = records.clone();
        assert!(primary.set_stream_hook(Box::new(move |rec| seen.lock().unwrap().push(rec.to_vec()))));
        for i in 0..100 {
            put_in(&primary, 3, &format!("keep:{i}"), &value(i));
        }
        primary.swap_db(3, 5).unwrap();
    }
    {
        // The replica's databases 3 and 5 are filled and swapped by the stream alone; only
        // database 0 is written on it, and its churn makes compaction copy the records.
        let replica = Db::open(opts(&replica_dir)).unwrap();
        for rec in records.lock().unwrap().iter() {
            replica.apply_replicated(rec, None).unwrap();
        }
        churn_until_compacted(&replica, 2);
        replica.sync().unwrap();
    }
    let replica = Db::open(opts(&replica_dir)).unwrap();
    for i in 0..100 {
        assert_eq!(get_in(&replica, 5, &format!("keep:{i}")), Some(value(i)), "keep:{i}");
        assert_eq!(get_in(&replica, 3, &format!("keep:{i}")), None);
    }
}

#[test]
fn a_replicated_record_naming_a_database_past_the_last_is_refused() {
    let dir = TempDir::new("db-replica-hostile");
    let db = Db::open(Options::new(dir.path()).databases(4)).unwrap();
    for rec in [naming_record(4, 4, None), naming_record(4, u32::MAX, None), naming_record(6, 0, Some(9)), naming_record(6, 70_000, Some(1))] {
        let err = db.apply_replicated(&rec, None).unwrap_err();
        assert!(format!("{err}").contains("names database"), "{err}");
    }
    put_in(&db, 3, "still", "here");
    assert_eq!(get_in(&db, 3, "still").as_deref(), Some("here"));
    // Nothing of the refused records was logged: the store opens again.
    drop(db);
    let db = Db::open(Options::new(dir.path()).databases(4)).unwrap();
    assert_eq!(get_in(&db, 3, "still").as_deref(), Some("here"));
}
