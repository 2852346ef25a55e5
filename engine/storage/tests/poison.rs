//! Recovery scenario: an fsync fails. The waiting write gets an error, later writes are
//! refused (the kernel may have dropped the pages it could not write), reads still work, and
//! after a reopen the store accepts writes again with every acknowledged write present.

mod common;
use basalt_storage::{Entry, Fsync, StorageError, Value};
use bytes::Bytes;
use common::*;

#[test]
fn failed_fsync_poisons_until_reopen() {
    let dir = TempDir::new("poison");
    for round in 0..3 {
        let db = open(dir.path(), Fsync::Always);
        for r in 0..round {
            assert_eq!(get(&db, &format!("acked{r}")).as_deref(), Some("yes"), "round {round}");
        }
        set(&db, &format!("acked{round}"), "yes");
        db.inject_fsync_failure();
        let ((), lsn) = db
            .update(b"doomed", |s| {
                s.put(Entry::new(Value::Str(Bytes::from_static(b"x"))));
            })
            .unwrap();
        match db.wait_durable_blocking(lsn) {
            Err(StorageError::Poisoned { reason }) => assert!(reason.contains("injected"), "{reason}"),
            other => panic!("expected Poisoned, got {other:?}"),
        }
        assert!(matches!(db.update(b"later", |s| s.remove()), Err(StorageError::Poisoned { .. })));
        assert!(matches!(db.flush_all(), Err(StorageError::Poisoned { .. })));
        assert_eq!(get(&db, &format!("acked{round}")).as_deref(), Some("yes"));
        let stats = db.stats();
        assert!(stats.poisoned);
        assert!(stats.last_fsync_error.unwrap().contains("injected"));
    }
}
