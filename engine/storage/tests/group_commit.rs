//! Under `fsync always`, concurrent writers share fsyncs (group commit), every acknowledged
//! write is durable, and a reopen finds them all.

mod common;
use basalt_storage::{Fsync, Value};
use common::*;

#[test]
fn concurrent_writers_share_fsyncs() {
    let dir = TempDir::new("group");
    let threads = 16;
    let per_thread = 50;
    {
        let db = open(dir.path(), Fsync::Always);
        std::thread::scope(|s| {
            for t in 0..threads {
                let db = db.clone();
                s.spawn(move || {
                    for i in 0..per_thread {
                        set(&db, &format!("t{t}-{i}"), &format!("{i}"));
                        assert!(db.stats().durable_lsn >= 1);
                    }
                });
            }
        });
        let stats = db.stats();
        let writes = (threads * per_thread) as u64;
        assert_eq!(stats.durable_lsn, writes);
        assert!(stats.fsyncs < writes, "no grouping: {} fsyncs for {writes} writes", stats.fsyncs);
        eprintln!("{writes} writes, {} fsyncs, avg fsync {} us", stats.fsyncs, stats.fsync_avg_us);
    }
    let db = open(dir.path(), Fsync::Always);
    assert_eq!(db.len(), (threads * per_thread) as u64);
    for t in 0..threads {
        for i in 0..per_thread {
            let v = db.read(format!("t{t}-{i}").as_bytes(), |e| e.map(|e| e.value.clone())).unwrap();
            assert!(matches!(v, Some(Value::Str(b)) if b == format!("{i}").as_bytes()));
        }
    }
}

#[test]
fn second_open_of_same_dir_is_refused() {
    let dir = TempDir::new("lock");
    let _db = open(dir.path(), Fsync::No);
    assert!(matches!(
        basalt_storage::Db::open(basalt_storage::Options::new(dir.path())),
        Err(basalt_storage::StorageError::Locked { .. })
    ));
}
