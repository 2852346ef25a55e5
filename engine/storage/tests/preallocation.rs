//! Segments the log moves to are preallocated (wal.rs `preallocate`), and under `always` small
//! writes find zeros written ahead of them (`Wal::zero_ahead`): the disk figure counts that
//! space, shutdown cuts it, and a crash that leaves it (a zero tail) loses nothing.

mod common;
use basalt_storage::{Db, Fsync, Options};
use common::*;

fn file_bytes(dir: &std::path::Path) -> u64 {
    segments(dir).iter().map(|p| std::fs::metadata(p).unwrap().len()).sum()
}

fn opts(dir: &std::path::Path) -> Options {
    Options::new(dir).fsync(Fsync::Always).segment_bytes(64 * 1024)
}

#[test]
fn the_disk_figure_counts_preallocated_space_and_shutdown_cuts_it() {
    let dir = TempDir::new("prealloc");
    let value = "v".repeat(1000);
    {
        let db = Db::open(opts(dir.path())).unwrap();
        for i in 0..200 {
            set(&db, &format!("key{i}"), &value);
        }
        db.sync().unwrap();
        let s = db.stats();
        assert!(segments(dir.path()).len() > 2, "expected several segments");
        assert!(s.log_disk_bytes > s.log_bytes, "the active segment should be preallocated: {} vs {}", s.log_disk_bytes, s.log_bytes);
        assert_eq!(s.log_disk_bytes, file_bytes(dir.path()), "the disk figure is the files' size");
    }
    // Shutdown cut the preallocated space: the files hold records only.
    let db = Db::open(opts(dir.path())).unwrap();
    let s = db.stats();
    assert_eq!(file_bytes(dir.path()), s.log_bytes);
    assert_eq!(s.log_disk_bytes, s.log_bytes);
    assert_eq!(db.len(), 200);
}

#[test]
fn a_zero_tail_left_by_a_crash_is_cut_and_nothing_is_lost() {
    let dir = TempDir::new("prealloc-crash");
    {
        let db = Db::open(opts(dir.path())).unwrap();
        for i in 0..100 {
            set(&db, &format!("key{i}"), &format!("value{i}"));
        }
    }
    // What a power loss leaves: the active segment still at its preallocated size.
    let last = segments(dir.path()).pop().unwrap();
    let f = std::fs::OpenOptions::new().write(true).open(&last).unwrap();
    f.set_len(64 * 1024).unwrap();
    for round in 0..2 {
        let db = Db::open(opts(dir.path())).unwrap();
        assert_eq!(db.len(), 100 + round);
        for i in 0..100 {
            assert_eq!(get(&db, &format!("key{i}")).as_deref(), Some(format!("value{i}").as_str()));
        }
        // A write after recovery lands after the records, not after the zeros.
        if round == 0 {
            set(&db, "after", "crash");
        } else {
            assert_eq!(get(&db, "after").as_deref(), Some("crash"));
        }
    }
}

#[test]
fn under_always_small_writes_find_zeros_written_ahead_and_shutdown_cuts_them() {
    // A new store's first segment is not preallocated: only zeros written ahead make it longer
    // than its records.
    for (fsync, ahead) in [(Fsync::Always, true), (Fsync::EverySec, false)] {
        let dir = TempDir::new("zero-ahead");
        {
            let db = Db::open(Options::new(dir.path()).fsync(fsync)).unwrap();
            for i in 0..100 {
                set(&db, &format!("key{i}"), &format!("value{i}"));
            }
            db.sync().unwrap();
            let s = db.stats();
            assert_eq!(s.log_disk_bytes, file_bytes(dir.path()), "{fsync:?}: the disk figure is the file's size");
            assert_eq!(s.log_disk_bytes > s.log_bytes, ahead, "{fsync:?}: {} bytes on disk for {} of records", s.log_disk_bytes, s.log_bytes);
        }
        let db = Db::open(Options::new(dir.path()).fsync(fsync)).unwrap();
        assert_eq!(file_bytes(dir.path()), db.stats().log_bytes, "{fsync:?}: shutdown cut the zeros");
        assert_eq!(db.len(), 100);
        assert_eq!(get(&db, "key99").as_deref(), Some("value99"));
    }
}
