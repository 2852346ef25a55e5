//! Under `everysec`, a segment the log moved past is made durable at once, not at the second's
//! end (wal.rs `rotate`: the next change of segment finds it durable and need not fsync it on
//! the thread that writes, a connection's).

mod common;
use basalt_storage::{Db, Fsync, Options};
use common::*;
use std::time::{Duration, Instant};

/// Waits until the log has counted an fsync more than `fsyncs`; the time it took.
fn next_fsync(db: &Db, fsyncs: u64, within: Duration) -> Duration {
    let start = Instant::now();
    while db.stats().fsyncs == fsyncs {
        assert!(start.elapsed() < within, "no fsync within {within:?}");
        std::thread::sleep(Duration::from_millis(1));
    }
    start.elapsed()
}

#[test]
fn everysec_syncs_at_once_after_a_change_of_segment() {
    let dir = TempDir::new("segment-change");
    let db = Db::open(Options::new(dir.path()).fsync(Fsync::EverySec).segment_bytes(4096)).unwrap();
    // A write, then its periodic sync: the next periodic one is a second away.
    set(&db, "first", "x");
    next_fsync(&db, db.stats().fsyncs, Duration::from_secs(5));
    let periodic = Instant::now();
    let fsyncs = db.stats().fsyncs;
    // 40 records of ~130 bytes: past the end of a 4 KB segment.
    for i in 0..40 {
        set(&db, &format!("key{i}"), &"v".repeat(100));
    }
    assert!(segments(dir.path()).len() >= 2, "the writes did not reach a second segment");
    next_fsync(&db, fsyncs, Duration::from_secs(5));
    let after = periodic.elapsed();
    assert!(after < Duration::from_millis(800), "the ended segment waited {after:?} for the periodic sync");
}
