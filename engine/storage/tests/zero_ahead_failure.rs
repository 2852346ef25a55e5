//! A write of zeros ahead of the records (`Wal::zero_ahead`, under `always`) that fails
//! partway, as on a full disk, leaves the file longer than its records: the disk figure still
//! counts the files' real size, and the records written after it are kept.
//!
//! Its own test binary: the failure comes from a file-size limit (RLIMIT_FSIZE), which holds
//! for the whole process.

mod common;
use basalt_storage::{Db, Fsync, Options};
use common::*;

fn file_bytes(dir: &std::path::Path) -> u64 {
    segments(dir).iter().map(|p| std::fs::metadata(p).unwrap().len()).sum()
}

#[test]
fn a_write_of_zeros_cut_short_is_counted_by_the_disk_figure() {
    let dir = TempDir::new("zero-ahead-failure");
    // Writes past the limit fail with EFBIG (the signal they would raise is ignored).
    const LIMIT: u64 = 100_000;
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        // Only the soft limit changes: a user whose hard limit is finite may not raise it.
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        assert_eq!(libc::getrlimit(libc::RLIMIT_FSIZE, &mut limit), 0);
        limit.rlim_cur = LIMIT.min(limit.rlim_max);
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &limit), 0);
    }
    {
        let db = Db::open(Options::new(dir.path()).fsync(Fsync::Always)).unwrap();
        // The first write-out's zeros (256 KB ahead) stop at the limit.
        for i in 0..100 {
            set(&db, &format!("key{i}"), &format!("value{i}"));
        }
        db.sync().unwrap();
        let s = db.stats();
        assert_eq!(file_bytes(dir.path()), LIMIT, "the zeros ran up to the limit");
        assert_eq!(s.log_disk_bytes, file_bytes(dir.path()), "the disk figure is the files' size");
    }
    let db = Db::open(Options::new(dir.path()).fsync(Fsync::Always)).unwrap();
    for i in 0..100 {
        assert_eq!(get(&db, &format!("key{i}")).as_deref(), Some(format!("value{i}").as_str()));
    }
}
