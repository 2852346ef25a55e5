//! Recovery scenario: TTLs survive restarts; keys that expired while the store was down are
//! gone after it comes back, keys with time left keep their exact expiry.

mod common;
use basalt_storage::{now_ms, Entry, Fsync, Value};
use bytes::Bytes;
use common::*;

fn set_px(db: &basalt_storage::Db, key: &str, at: u64) {
    let ((), lsn) = db
        .update(key.as_bytes(), |s| {
            s.put(Entry::with_expiry(Value::Str(Bytes::from_static(b"v")), Some(at)));
        })
        .unwrap();
    db.wait_durable_blocking(lsn).unwrap();
}

fn expiry(db: &basalt_storage::Db, key: &str) -> Option<Option<u64>> {
    db.read(key.as_bytes(), |e| e.map(|e| e.expires_at_ms)).unwrap()
}

#[test]
fn ttls_survive_restarts() {
    let dir = TempDir::new("expiry");
    let far = now_ms() + 3_600_000;
    {
        let db = open(dir.path(), Fsync::EverySec);
        set_px(&db, "short", now_ms() + 300);
        set_px(&db, "long", far);
        set(&db, "forever", "v");
        // PERSIST on a key with a TTL is logged too.
        set_px(&db, "persisted", now_ms() + 200);
        let (ok, lsn) = db.update(b"persisted", |s| s.set_expiry(None)).unwrap();
        assert!(ok);
        db.wait_durable_blocking(lsn).unwrap();
    }
    for round in 0..3 {
        let db = open(dir.path(), Fsync::EverySec);
        assert_eq!(expiry(&db, "long"), Some(Some(far)), "round {round}");
        assert_eq!(expiry(&db, "forever"), Some(None));
        assert_eq!(expiry(&db, "persisted"), Some(None));
        if round == 0 {
            // Not yet expired at the first reopen (300 ms), expired later.
            std::thread::sleep(std::time::Duration::from_millis(400));
        }
        assert_eq!(expiry(&db, "short"), None, "round {round}: expired key came back");
    }
}

#[test]
fn active_sweep_removes_expired_keys_without_access() {
    let dir = TempDir::new("sweep");
    let db = open(dir.path(), Fsync::No);
    for i in 0..100 {
        set_px(&db, &format!("k{i}"), now_ms() + 50);
    }
    set(&db, "stay", "v");
    assert_eq!(db.len(), 101);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    while db.len() > 1 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(db.len(), 1);
    assert_eq!(db.stats().expires, 0);
    assert_eq!(db.stats().expired_keys, 100);
}
