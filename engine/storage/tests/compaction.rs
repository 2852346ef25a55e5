//! Recovery scenario: keys are overwritten and deleted until compaction removes old
//! segments; the store reopens with exactly the latest state, cold values included.

mod common;
use basalt_storage::{Db, Entry, Fsync, Options, Value};
use bytes::Bytes;
use common::*;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Few keys with large values: compaction finds the live values by walking the keys (200
/// keys' map slots cost less than reading a 64 KB segment).
#[test]
fn compaction_keeps_latest_state_across_reopens() {
    keeps_latest_state_across_reopens("compact", 200, 200);
}

/// Many keys with small values: compaction reads the segment (2,000 keys' slots cost more).
#[test]
fn compaction_reading_segments_keeps_latest_state_across_reopens() {
    keeps_latest_state_across_reopens("compact-read", 2000, 8);
}

fn keeps_latest_state_across_reopens(name: &str, keys: usize, pad: usize) {
    let dir = TempDir::new(name);
    let opts = || {
        Options::new(dir.path())
            .fsync(Fsync::EverySec)
            .segment_bytes(64 * 1024)
            .compact_min_bytes(256 * 1024)
            .maxmemory(128 * 1024)
    };
    let mut model: HashMap<String, String> = HashMap::new();
    for round in 0..4 {
        let db = Db::open(opts()).unwrap();
        for (k, v) in &model {
            assert_eq!(get(&db, k).as_deref(), Some(v.as_str()), "round {round}: {k}");
        }
        assert_eq!(db.len(), model.len() as u64);
        for i in 0..4000 * (1 + 200 / pad) {
            let k = format!("k{}", i % keys);
            if i % 17 == 0 {
                let ((), lsn) = db.update(k.as_bytes(), |s| {
                    s.remove();
                }).unwrap();
                db.wait_durable_blocking(lsn).unwrap();
                model.remove(&k);
            } else {
                let v = format!("{round}-{i}-{}", "z".repeat(pad));
                set(&db, &k, &v);
                model.insert(k, v);
            }
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        let busy = |s: basalt_storage::Stats| s.compactions == 0 || s.log_bytes >= 1024 * 1024;
        while busy(db.stats()) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let stats = db.stats();
        assert!(stats.compactions > 0, "round {round}: no compaction ({stats:?})");
        assert!(stats.log_bytes < 2 * 1024 * 1024, "round {round}: log not reclaimed: {stats:?}");
    }
    let db = Db::open(opts()).unwrap();
    assert_eq!(db.len(), model.len() as u64);
    for (k, v) in &model {
        assert_eq!(get(&db, k).as_deref(), Some(v.as_str()));
    }
    let _ = Entry::new(Value::Str(Bytes::new()));
}

/// `Stats::compaction_pending` (INFO persistence `wal_compaction_pending`) is what a benchmark
/// waits on: true while the log has a segment compaction would rewrite, false once it caught up.
#[test]
fn compaction_pending_is_true_until_compaction_caught_up() {
    let dir = TempDir::new("compact-pending");
    let db = Db::open(Options::new(dir.path()).fsync(Fsync::EverySec).segment_bytes(64 * 1024).compact_min_bytes(256 * 1024)).unwrap();
    assert!(!db.stats().compaction_pending, "an empty log has nothing to compact");
    let started = Instant::now();
    for i in 0..4000 {
        set(&db, &format!("k{}", i % 100), &format!("{i}-{}", "z".repeat(200)));
    }
    // The maintenance thread looks once a second: right after the writes the work is still there.
    let stats = db.stats();
    if started.elapsed() < Duration::from_millis(900) {
        assert!(stats.compaction_pending, "800 KB of log, 20 KB live: compaction is due ({stats:?})");
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while db.stats().compaction_pending && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let stats = db.stats();
    assert!(!stats.compaction_pending, "still pending after 10 s: {stats:?}");
    assert!(stats.compactions > 0);
    assert!(stats.log_bytes < 256 * 1024 || stats.live_log_bytes * 2 > stats.log_bytes, "{stats:?}");
}

/// A mostly dead log that is all in the segment written to (a segment larger than the log:
/// many changes to a few keys) is compacted too, also once writes stopped: compaction ends
/// the segment instead of waiting for it to fill, so the log stays within twice what is live.
#[test]
fn a_mostly_dead_log_in_one_segment_is_compacted() {
    let dir = TempDir::new("compact-one-segment");
    let db = Db::open(Options::new(dir.path()).fsync(Fsync::EverySec).segment_bytes(64 << 20).compact_min_bytes(256 * 1024)).unwrap();
    for i in 0..4000 {
        set(&db, &format!("k{}", i % 100), &format!("{i}-{}", "z".repeat(200)));
    }
    let stats = db.stats();
    assert!(stats.log_bytes > 512 * 1024 && stats.live_log_bytes * 4 < stats.log_bytes, "{stats:?}");
    assert!(stats.compaction_pending || stats.compactions > 0, "INFO shows the work to do: {stats:?}");
    // No write follows: a log that stopped growing is compacted too.
    let deadline = Instant::now() + Duration::from_secs(10);
    while db.stats().compactions == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let stats = db.stats();
    assert!(stats.compactions > 0, "no compaction within 10 s: {stats:?}");
    assert!(stats.log_bytes < 256 * 1024, "log not reclaimed: {stats:?}");
    drop(db);
    let db = Db::open(Options::new(dir.path())).unwrap();
    assert_eq!(db.len(), 100);
    assert_eq!(get(&db, "k99").as_deref(), Some(format!("3999-{}", "z".repeat(200)).as_str()));
    set(&db, "after", "a new segment takes records");
    drop(db);
    let db = Db::open(Options::new(dir.path())).unwrap();
    assert_eq!(get(&db, "after").as_deref(), Some("a new segment takes records"));
}

/// Under `fsync always` a compacted segment is renamed out of the log before it is cut down
/// (in 1 MB steps) and removed, so a crash midway leaves no cut segment for recovery to read
/// as damage; recovery removes the leftover.
#[test]
fn a_segment_removal_a_crash_stopped_is_not_read_as_log() {
    let dir = TempDir::new("compact-removing");
    let opts = || Options::new(dir.path()).fsync(Fsync::Always).segment_bytes(3 << 20).compact_min_bytes(4 << 20);
    let names = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    };
    let db = Db::open(opts()).unwrap();
    let value = |i: usize| format!("{i}-{}", "z".repeat(1000));
    // 12 MB over 100 keys: segments of 3 MB, each cut in steps when compaction removes it.
    // Not waiting for each write: one fdatasync each would take a minute.
    let mut last = 0;
    for i in 0..12_000 {
        let ((), lsn) = db.update(format!("k{}", i % 100).as_bytes(), |s| {
            s.put(Entry::new(Value::Str(Bytes::from(value(i)))));
        })
        .unwrap();
        last = lsn;
    }
    db.wait_durable_blocking(last).unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while db.stats().compactions < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(db.stats().compactions >= 2, "{:?}", db.stats());
    // Closed: the maintenance thread has finished the removal it was in (it may be in one now).
    drop(db);
    assert!(names().iter().all(|n| !n.ends_with(".removing")), "a removal left its file: {:?}", names());

    // A crash in the middle of a removal: the oldest segment's bytes, cut mid-record, under the
    // name of the segment before it. As a `.log` it would be damage before the log's tail.
    let oldest = names().into_iter().find(|n| n.starts_with("wal-") && n.ends_with(".log")).unwrap();
    let id: u32 = oldest["wal-".len()..oldest.len() - ".log".len()].parse().unwrap();
    let bytes = std::fs::read(dir.path().join(&oldest)).unwrap();
    let leftover = dir.path().join(format!("wal-{:010}.removing", id - 1));
    std::fs::write(&leftover, &bytes[..bytes.len().min(1_000_001)]).unwrap();
    let db = Db::open(opts()).unwrap();
    assert!(!leftover.exists(), "recovery left {}", leftover.display());
    assert_eq!(db.len(), 100);
    for k in 0..100 {
        assert_eq!(get(&db, &format!("k{k}")), Some(value(11_900 + k)));
    }
}
