//! Recovery scenario: the changes made inside `Db::atomically` (EXEC, EVAL) are one log
//! record. Cut the log anywhere inside that record and reopen: none of the transaction is
//! there; leave it whole: all of it is, across databases, SWAPDB and MOVE. Values written in
//! a transaction are then read back cold (after eviction) from their place in that record.

mod common;
use basalt_storage::{Db, Fsync, Options};
use common::*;

/// The transaction: 20 puts in databases 0 and 3, a MOVE and a SWAPDB of 3 and 4.
fn transaction(db: &Db) {
    let ((), lsn) = db
        .atomically(|| {
            for i in 0..10 {
                put_in(db, 0, &format!("a{i}"), &format!("v{i}").repeat(20));
                put_in(db, 3, &format!("b{i}"), &format!("w{i}").repeat(20));
            }
            assert!(db.move_key(b"a0", 0, 5).unwrap().0);
            db.swap_db(3, 4).unwrap();
        })
        .unwrap();
    assert!(lsn > 0);
    db.wait_durable_blocking(lsn).unwrap();
}

/// How much of the transaction a reopened store shows: 0 (none) or 20 (all).
fn visible(db: &Db) -> usize {
    let mut n = (1..10).filter(|i| get_in(db, 0, &format!("a{i}")).is_some()).count();
    n += (0..10).filter(|i| get_in(db, 4, &format!("b{i}")).as_deref() == Some(&format!("w{i}").repeat(20)[..])).count();
    n += get_in(db, 5, "a0").is_some() as usize;
    n += (0..10).filter(|i| get_in(db, 3, &format!("b{i}")).is_some()).count() * 100;
    n
}

#[test]
fn a_torn_transaction_leaves_nothing() {
    let whole = TempDir::new("tx-whole");
    let before;
    {
        let db = open(whole.path(), Fsync::Always);
        put_in(&db, 0, "before", "x");
        db.sync().unwrap();
        // Where the records end (one segment): the file may be longer while the store is open
        // (zeros written ahead under `always`, `Wal::zero_ahead`).
        before = db.stats().log_bytes;
        transaction(&db);
    }
    // Every cut inside the record (a sample of them) drops all of it.
    each_cut(whole.path(), before, |cut, db| {
        assert_eq!(get(db, "before").as_deref(), Some("x"));
        assert_eq!(visible(db), 0, "cut at {cut} after {before}");
    });
    let db = open(whole.path(), Fsync::Always);
    assert_eq!(visible(&db), 20);
}

#[test]
fn transaction_values_read_back_cold() {
    let dir = TempDir::new("tx-cold");
    let options = || Options::new(dir.path()).fsync(Fsync::Always).maxmemory(1);
    {
        let db = Db::open(options()).unwrap();
        transaction(&db);
        // With maxmemory 1 every written-out value leaves memory; reads load it from the log.
        db.set_maxmemory(1);
        assert_eq!(visible(&db), 20);
        assert!(db.stats().cache_misses > 0, "values were read back from the log");
    }
    let db = Db::open(options()).unwrap();
    assert_eq!(visible(&db), 20);
}
