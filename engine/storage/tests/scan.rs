//! SCAN returns every key present for the whole scan at least once, while other keys are
//! added and removed between pages; RANDOMKEY and DBSIZE agree.

mod common;
use basalt_storage::{Fsync, Kind};
use common::*;
use std::collections::HashSet;

#[test]
fn scan_sees_stable_keys_despite_churn() {
    let dir = TempDir::new("scan");
    let db = open(dir.path(), Fsync::No);
    for i in 0..1000 {
        set(&db, &format!("stable{i}"), "v");
        set(&db, &format!("churn{i}"), "v");
    }
    let mut seen = HashSet::new();
    let mut cursor = 0;
    let mut pages = 0;
    loop {
        let page = db.scan(cursor, 37);
        for (k, kind) in page.keys {
            assert_eq!(kind, Kind::Str);
            seen.insert(k);
        }
        // Churn between pages: delete some keys, add others.
        for j in 0..10 {
            let k = format!("churn{}", pages * 10 + j);
            db.update(k.as_bytes(), |s| s.remove()).unwrap();
            set(&db, &format!("new{pages}-{j}"), "v");
        }
        pages += 1;
        cursor = page.cursor;
        if cursor == 0 {
            break;
        }
        assert!(pages < 10_000, "scan does not terminate");
    }
    for i in 0..1000 {
        assert!(seen.contains(format!("stable{i}").as_bytes()), "stable{i} missed");
    }
    assert!(db.random_key().is_some());
    assert_eq!(db.scan(u64::MAX, 10).keys.len(), 0);
}
