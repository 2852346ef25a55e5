//! Recovery scenario: recovery to a point in time. Segments restored into an empty dir with a
//! `recovery.target` open with exactly the writes at or before the target time (or LSN); the
//! log is cut there, the target file goes, and new writes follow. A crash at any step of the
//! cut (segments after it removed last first, the segment cut, the file removed) and a reopen
//! end the same.

mod common;
use basalt_storage::{Db, Fsync, Options, TARGET_FILE};
use common::*;
use std::path::Path;
use std::time::Duration;

fn opts(dir: &Path) -> Options {
    Options::new(dir).fsync(Fsync::Always).segment_bytes(4096)
}

/// Writes `before` keys, waits, notes the time T, waits, writes `after` keys; returns T and
/// the LSN of the last write before T.
fn history(dir: &Path) -> (u64, u64) {
    let db = Db::open(opts(dir)).unwrap();
    for i in 0..60 {
        set(&db, &format!("before{i}"), &"b".repeat(100));
    }
    let lsn = db.last_lsn();
    std::thread::sleep(Duration::from_millis(5));
    let t = basalt_storage::now_ms();
    std::thread::sleep(Duration::from_millis(5));
    for i in 0..60 {
        set(&db, &format!("after{i}"), &"a".repeat(100));
        set(&db, &format!("before{i}"), "overwritten");
    }
    (t, lsn)
}

/// The log segment files of `from` copied into `to` (a restore), with a target.
fn restore(from: &Path, to: &Path, target: &str) {
    for seg in segments(from) {
        std::fs::copy(&seg, to.join(seg.file_name().unwrap())).unwrap();
    }
    std::fs::write(to.join(TARGET_FILE), target).unwrap();
}

fn assert_at_target(db: &Db) {
    assert_eq!(db.len(), 60);
    for i in 0..60 {
        assert_eq!(get(db, &format!("before{i}")), Some("b".repeat(100)), "before{i}");
        assert_eq!(get(db, &format!("after{i}")), None, "after{i}");
    }
}

/// Names and lengths of the log files.
fn files(dir: &Path) -> Vec<(std::path::PathBuf, u64)> {
    segments(dir).into_iter().map(|p| (p.file_name().unwrap().into(), std::fs::metadata(&p).unwrap().len())).collect()
}

#[test]
fn recovery_to_a_time_keeps_exactly_the_writes_before_it() {
    let (source, dir) = (TempDir::new("pitr-source"), TempDir::new("pitr-time"));
    let (t, lsn) = history(source.path());
    restore(source.path(), dir.path(), &format!("# restore\ntime-ms={t}\n"));
    {
        let db = Db::open(opts(dir.path())).unwrap();
        assert_at_target(&db);
        let stopped = db.recovery_stopped().unwrap();
        assert!(stopped.past_target && stopped.lsn == lsn && stopped.time_ms <= t, "{stopped:?}");
        assert!(!dir.path().join(TARGET_FILE).exists());
        assert_eq!(db.last_lsn(), lsn);
        set(&db, "new", "after the restore");
        assert_eq!(db.last_lsn(), lsn + 1);
    }
    let db = Db::open(opts(dir.path())).unwrap();
    assert!(db.recovery_stopped().is_none());
    assert_eq!(db.len(), 61);
    assert_eq!(get(&db, "new").as_deref(), Some("after the restore"));
    assert_eq!(get(&db, "before59"), Some("b".repeat(100)));
}

#[test]
fn recovery_to_an_lsn_and_a_bad_target_file() {
    let (source, dir) = (TempDir::new("pitr-source-lsn"), TempDir::new("pitr-lsn"));
    let (_, lsn) = history(source.path());
    restore(source.path(), dir.path(), &format!("lsn={lsn}\n"));
    assert_at_target(&Db::open(opts(dir.path())).unwrap());
    let bad = TempDir::new("pitr-bad");
    restore(source.path(), bad.path(), "time=yesterday\n");
    assert!(Db::open(opts(bad.path())).is_err());
}

#[test]
fn a_crash_at_any_step_of_the_cut_ends_the_same() {
    let (source, whole) = (TempDir::new("pitr-source-crash"), TempDir::new("pitr-whole"));
    let (t, _) = history(source.path());
    let target = format!("time-ms={t}\n");
    restore(source.path(), whole.path(), &target);
    drop(Db::open(opts(whole.path())).unwrap());
    let end = files(whole.path());
    let all = segments(source.path());
    assert!(all.len() > end.len() + 1, "the target should cut several segments");
    // Crashed while removing the segments after the cut (last first): some of them left.
    for left in [all.len() - 1, end.len() + 1, end.len()] {
        let dir = TempDir::new("pitr-crash-removing");
        restore(source.path(), dir.path(), &target);
        for seg in &segments(dir.path())[left..] {
            std::fs::remove_file(seg).unwrap();
        }
        let db = Db::open(opts(dir.path())).unwrap();
        assert_at_target(&db);
        drop(db);
        assert_eq!(files(dir.path()), end, "{left} segments left");
    }
    // Crashed after the cut, before the target file was removed.
    let dir = TempDir::new("pitr-crash-cut");
    restore(whole.path(), dir.path(), &target);
    let db = Db::open(opts(dir.path())).unwrap();
    assert_at_target(&db);
    assert!(!db.recovery_stopped().unwrap().past_target);
    drop(db);
    assert_eq!(files(dir.path()), end);
    assert!(!dir.path().join(TARGET_FILE).exists());
}
