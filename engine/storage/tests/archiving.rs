//! Recovery scenario: archiving on. Compaction keeps every segment not yet marked archived
//! and removes them once marked (in order); LSNs stay across the removal and a reopen; the
//! seal interval makes what is appended readable by a backup; reads and marks refuse what
//! lies outside the sealed bytes.

mod common;
use basalt_storage::{Db, Fsync, Options, StorageError, MAX_READ};
use common::*;
use std::time::{Duration, Instant};

fn archiving(dir: &std::path::Path) -> Options {
    Options::new(dir).fsync(Fsync::Always).segment_bytes(4096).compact_min_bytes(8192).archive(true)
}

fn oldest(db: &Db) -> u32 {
    db.backup_segments()[0].id
}

#[test]
fn compaction_keeps_unarchived_segments_until_marked() {
    let dir = TempDir::new("archive-keep");
    let db = Db::open(archiving(dir.path())).unwrap();
    // 10 keys written over and over: most of the log is dead, compaction is due.
    for i in 0..400 {
        set(&db, &format!("k{}", i % 10), &format!("{i}-{}", "v".repeat(100)));
    }
    db.sync().unwrap();
    let before = db.backup_segments();
    assert!(before.len() > 8 && before[0].id == 1, "{} segments", before.len());
    assert!(db.stats().compaction_pending);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(oldest(&db), 1, "compaction removed a segment not archived");
    // Out of order, or the active segment: refused.
    let refusal = |r: Result<(), StorageError>| match r {
        Err(StorageError::InvalidOptions(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    };
    assert!(refusal(db.mark_archived(3)).contains("segment 1 is not archived yet"));
    let active = before.last().unwrap().id;
    assert!(refusal(db.mark_archived(active)).contains("not sealed"));
    assert!(refusal(db.mark_archived(active + 5)).contains("no segment"));
    let sealed: Vec<u32> = before.iter().filter(|s| s.sealed).map(|s| s.id).collect();
    for &id in &sealed {
        db.mark_archived(id).unwrap();
    }
    db.mark_archived(1).unwrap(); // again: nothing changes
    assert_eq!(db.archived_upto(), *sealed.last().unwrap());
    let started = Instant::now();
    while oldest(&db) == 1 {
        assert!(started.elapsed() < Duration::from_secs(5), "archived segments were never compacted");
        std::thread::sleep(Duration::from_millis(100));
    }
    let last_lsn = db.last_lsn();
    drop(db);
    let db = Db::open(archiving(dir.path())).unwrap();
    assert_eq!(db.last_lsn(), last_lsn, "LSNs start again after compaction");
    assert!(oldest(&db) > 1 && db.archived_upto() == *sealed.last().unwrap());
    for i in 390..400 {
        assert_eq!(get(&db, &format!("k{}", i % 10)), Some(format!("{i}-{}", "v".repeat(100))));
    }
}

#[test]
fn the_seal_interval_makes_the_tail_readable() {
    // Under `no` nothing else makes the log durable.
    let dir = TempDir::new("archive-seal");
    let db = Db::open(Options::new(dir.path()).fsync(Fsync::No).archive(true).archive_seal_interval_ms(50)).unwrap();
    set(&db, "a", "1");
    let started = Instant::now();
    while db.backup_segments()[0].last_lsn != db.last_lsn() {
        assert!(started.elapsed() < Duration::from_secs(2), "never sealed: {:?}", db.backup_segments());
        std::thread::sleep(Duration::from_millis(10));
    }
    let listed = db.backup_segments()[0];
    assert!(!listed.sealed && listed.bytes > 0);
    let mut buf = vec![0u8; 64];
    assert_eq!(db.read_segment(1, 0, &mut buf).unwrap() as u64, listed.bytes.min(64));
    // Off: the tail stays unsealed.
    let dir = TempDir::new("archive-seal-off");
    let db = Db::open(Options::new(dir.path()).fsync(Fsync::No).archive_seal_interval_ms(50)).unwrap();
    set(&db, "a", "1");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(db.backup_segments()[0].bytes, 0);
}

#[test]
fn the_segment_seal_mode_ends_the_segment() {
    let dir = TempDir::new("archive-seal-segment");
    let opts = Options::new(dir.path()).fsync(Fsync::Always).archive(true).archive_seal_interval_ms(50).archive_seal_segments(true);
    let db = Db::open(opts).unwrap();
    set(&db, "a", "1");
    let started = Instant::now();
    while !db.backup_segments()[0].sealed {
        assert!(started.elapsed() < Duration::from_secs(2), "never sealed: {:?}", db.backup_segments());
        std::thread::sleep(Duration::from_millis(10));
    }
    db.mark_archived(1).unwrap();
}

#[test]
fn reads_stay_within_the_sealed_bytes_and_a_base_ends_at_the_log_end() {
    let dir = TempDir::new("archive-read");
    let db = Db::open(archiving(dir.path())).unwrap();
    for i in 0..80 {
        set(&db, &format!("k{i}"), &"v".repeat(100));
    }
    let base = db.take_base().unwrap();
    assert_eq!(base.end_lsn, db.last_lsn());
    assert!(base.segments.windows(2).all(|w| w[1].id == w[0].id + 1 && w[1].first_lsn == w[0].last_lsn + 1));
    assert_eq!(base.segments.last().unwrap().last_lsn, base.end_lsn);
    assert_eq!(base.segments.last().unwrap().last_time_ms, base.end_time_ms);
    let first = base.segments[0];
    let mut whole = vec![0u8; first.bytes as usize + 100];
    assert_eq!(db.read_segment(1, 0, &mut whole).unwrap() as u64, first.bytes);
    assert_eq!(&whole[..first.bytes as usize], &std::fs::read(dir.path().join("wal-0000000001.log")).unwrap()[..first.bytes as usize]);
    let mut buf = vec![0u8; 10];
    assert_eq!(db.read_segment(1, first.bytes, &mut buf).unwrap(), 0);
    assert!(db.read_segment(1, first.bytes + 1, &mut buf).is_err());
    assert!(db.read_segment(999, 0, &mut buf).is_err());
    let mut big = vec![0u8; MAX_READ + 10];
    assert!(db.read_segment(1, 0, &mut big).unwrap() <= MAX_READ);
}
