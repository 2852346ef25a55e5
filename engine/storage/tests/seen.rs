//! `seen`: what a read notes for its reply to wait for (the server's replies wait until it is
//! durable). A key's own last change, whole put or delta op, or the SWAPDB that brought it;
//! the log's end for a key not found. Never less than the change the read showed.

mod common;
use basalt_storage::{seen, Delta, Entry, Fsync, Value};
use bytes::Bytes;
use common::*;

fn put(db: &basalt_storage::Db, key: &str, value: Value) -> u64 {
    put_in(db, 0, key, value)
}

fn put_in(db: &basalt_storage::Db, ks: usize, key: &str, value: Value) -> u64 {
    db.keyspace(ks).update(key.as_bytes(), |s| {
        s.put(Entry::new(value));
    })
    .unwrap()
    .1
}

fn read_notes(db: &basalt_storage::Db, ks: usize, key: &str) -> u64 {
    seen::take();
    db.keyspace(ks).read(key.as_bytes(), |_| ()).unwrap();
    seen::take()
}

#[test]
fn a_read_notes_the_change_it_saw() {
    let dir = TempDir::new("seen");
    let db = open(dir.path(), Fsync::Always);
    let a = put(&db, "a", Value::Str(Bytes::from_static(b"1")));
    let one = [(Bytes::from_static(b"f0"), Bytes::from_static(b"v0"))].into_iter().collect();
    let h = put(&db, "h", Value::Hash(Box::new(one)));
    let b = put(&db, "b", Value::Str(Bytes::from_static(b"2")));
    assert!(a < h && h < b);
    assert_eq!(read_notes(&db, 0, "a"), a, "a key written before others: its own put");

    let ((), d) = db
        .update(b"h", |s| {
            s.apply(Delta::HashSet(Bytes::from_static(b"f"), Bytes::from_static(b"v")));
        })
        .unwrap();
    assert!(d > b);
    assert_eq!(read_notes(&db, 0, "h"), d, "a collection: its last delta op");
    assert_eq!(read_notes(&db, 0, "a"), a);

    let end = db.last_lsn();
    assert_eq!(read_notes(&db, 0, "missing"), end, "not found: a removal may be why, the log's end");

    // SWAPDB moves items without new records: a key it brought notes the swap.
    let moved = put_in(&db, 1, "moved", Value::Str(Bytes::from_static(b"3")));
    let swap = db.swap_db(0, 1).unwrap();
    assert!(swap > moved);
    assert_eq!(read_notes(&db, 0, "moved"), swap);
    assert_eq!(read_notes(&db, 1, "a"), swap);
    let later = put(&db, "later", Value::Str(Bytes::from_static(b"4")));
    assert_eq!(read_notes(&db, 0, "later"), later, "a change after the swap: its own");

    // Notes add up until taken: a command reading several keys waits for the latest.
    seen::take();
    db.read(b"later", |_| ()).unwrap();
    db.keyspace(1).read(b"a", |_| ()).unwrap();
    assert_eq!(seen::take(), later);
    assert_eq!(seen::take(), 0, "taken");
}

/// Replayed at open: every item notes the LSN of its record, all durable.
#[test]
fn a_read_after_reopen_notes_the_replayed_record() {
    let dir = TempDir::new("seen-reopen");
    let (a, b) = {
        let db = open(dir.path(), Fsync::Always);
        let a = put(&db, "a", Value::Str(Bytes::from_static(b"1")));
        let b = put(&db, "b", Value::Str(Bytes::from_static(b"2")));
        db.wait_durable_blocking(b).unwrap();
        (a, b)
    };
    let db = open(dir.path(), Fsync::Always);
    assert_eq!(read_notes(&db, 0, "a"), a);
    assert_eq!(read_notes(&db, 0, "b"), b);
}
