//! Recovery scenario: a batch (MSET, RENAME) is one log record, so a crash that tears it
//! leaves none of its changes, and a complete one leaves all of them.

mod common;
use basalt_storage::{Entry, Fsync, Value};
use bytes::Bytes;
use common::*;
use std::fs::OpenOptions;

fn mset(db: &basalt_storage::Db, pairs: &[(String, String)]) {
    let keys: Vec<&[u8]> = pairs.iter().map(|(k, _)| k.as_bytes()).collect();
    let ((), lsn) = db
        .batch(&keys, |t| {
            for (k, v) in pairs {
                t.put(k.as_bytes(), Entry::new(Value::Str(Bytes::copy_from_slice(v.as_bytes()))));
            }
        })
        .unwrap();
    db.wait_durable_blocking(lsn).unwrap();
}

#[test]
fn torn_batch_applies_all_or_nothing() {
    let dir = TempDir::new("batch");
    for round in 0..6u64 {
        let pairs: Vec<(String, String)> = (0..40).map(|i| (format!("b{round}-{i}"), format!("v{i}"))).collect();
        {
            let db = open(dir.path(), Fsync::Always);
            // Earlier rounds: the complete batches are whole, the torn ones absent.
            for r in 0..round {
                let present = (0..40).filter(|i| get(&db, &format!("b{r}-{i}")).is_some()).count();
                let expect = if r % 2 == 0 { 0 } else { 40 };
                assert_eq!(present, expect, "round {round}: batch {r} partly applied");
            }
            mset(&db, &pairs);
        }
        if round % 2 == 0 {
            let last = segments(dir.path()).pop().unwrap();
            let len = std::fs::metadata(&last).unwrap().len();
            OpenOptions::new().write(true).open(&last).unwrap().set_len(len - 10 - round * 50).unwrap();
        }
    }
}

#[test]
fn rename_moves_value_and_ttl_atomically() {
    let dir = TempDir::new("rename");
    {
        let db = open(dir.path(), Fsync::Always);
        let ((), lsn) = db
            .update(b"src", |s| {
                s.put(Entry::with_expiry(Value::Str(Bytes::from_static(b"payload")), Some(u64::MAX / 2)));
            })
            .unwrap();
        db.wait_durable_blocking(lsn).unwrap();
        let (moved, lsn) = db
            .batch(&[b"src", b"dst"], |t| match t.remove(b"src") {
                Some(e) => {
                    t.put(b"dst", e);
                    true
                }
                None => false,
            })
            .unwrap();
        assert!(moved);
        db.wait_durable_blocking(lsn).unwrap();
    }
    for _ in 0..2 {
        let db = open(dir.path(), Fsync::Always);
        assert_eq!(get(&db, "src"), None);
        assert_eq!(get(&db, "dst").as_deref(), Some("payload"));
        assert_eq!(db.read(b"dst", |e| e.unwrap().expires_at_ms).unwrap(), Some(u64::MAX / 2));
    }
}

#[test]
fn flush_all_survives_restart() {
    let dir = TempDir::new("flush");
    {
        let db = open(dir.path(), Fsync::Always);
        set(&db, "a", "1");
        set(&db, "b", "2");
        let lsn = db.flush_all().unwrap();
        db.wait_durable_blocking(lsn).unwrap();
        set(&db, "c", "3");
    }
    let db = open(dir.path(), Fsync::Always);
    assert_eq!(db.len(), 1);
    assert_eq!(get(&db, "c").as_deref(), Some("3"));
}
