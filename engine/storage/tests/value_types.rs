//! Recovery scenario: every value type round-trips through the log, and an update that
//! empties a collection deletes its key, before and after a reopen.

mod common;
use basalt_storage::{Entry, Fsync, Kind, Value, ZSet};
use bytes::Bytes;
use common::*;
use std::collections::{HashMap, HashSet, VecDeque};

fn b(s: &str) -> Bytes {
    Bytes::copy_from_slice(s.as_bytes())
}

fn samples() -> Vec<(&'static str, Value)> {
    let mut z = ZSet::new();
    z.insert(b("a"), 2.5);
    z.insert(b("b"), -1.0);
    z.insert(b("c"), f64::INFINITY);
    vec![
        ("str", Value::Str(b("hello\r\n\0binary"))),
        ("hash", Value::Hash(Box::new(HashMap::from([(b("f1"), b("v1")), (b("f2"), b(""))])))),
        ("list", Value::List(VecDeque::from([b("x"), b("y"), b("x")]))),
        ("set", Value::Set(Box::new(HashSet::from([b("m1"), b("m2")])))),
        ("zset", Value::ZSet(Box::new(z))),
    ]
}

#[test]
fn every_type_survives_reopen() {
    let dir = TempDir::new("types");
    {
        let db = open(dir.path(), Fsync::Always);
        for (k, v) in samples() {
            let ((), lsn) = db.update(k.as_bytes(), |s| {
                s.put(Entry::new(v));
            }).unwrap();
            db.wait_durable_blocking(lsn).unwrap();
        }
        // Emptying a list deletes the key.
        let ((), lsn) = db.update(b"list2", |s| {
            s.put(Entry::new(Value::List(VecDeque::from([b("only")]))));
        }).unwrap();
        db.wait_durable_blocking(lsn).unwrap();
        let (popped, lsn) = db
            .update(b"list2", |s| match s.get_mut().map(|e| &mut e.value) {
                Some(Value::List(l)) => l.pop_front(),
                _ => None,
            })
            .unwrap();
        assert_eq!(popped, Some(b("only")));
        db.wait_durable_blocking(lsn).unwrap();
        assert_eq!(db.kind(b"list2"), None);
    }
    for _ in 0..2 {
        let db = open(dir.path(), Fsync::Always);
        assert_eq!(db.len(), 5);
        for (k, v) in samples() {
            assert_eq!(db.read(k.as_bytes(), |e| e.cloned()).unwrap(), Some(Entry::new(v)), "{k}");
        }
        assert_eq!(db.kind(b"zset"), Some(Kind::ZSet));
        let order: Vec<Bytes> = db
            .read(b"zset", |e| match &e.unwrap().value {
                Value::ZSet(z) => z.iter().map(|(m, _)| m.clone()).collect(),
                _ => vec![],
            })
            .unwrap();
        assert_eq!(order, vec![b("b"), b("a"), b("c")]);
    }
}
