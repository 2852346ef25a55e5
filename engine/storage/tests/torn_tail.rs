//! Recovery scenario: the last record is torn (a crash in the middle of a write). Every
//! complete record survives, the torn one is cut, and the log accepts appends after it.

mod common;
use basalt_storage::Fsync;
use common::*;
use std::fs::OpenOptions;
use std::io::Write;

#[test]
fn torn_tail_is_cut_and_earlier_records_survive() {
    let dir = TempDir::new("torn");
    let mut acked: Vec<(String, String)> = Vec::new();
    for round in 0..8 {
        {
            let db = open(dir.path(), Fsync::Always);
            for (k, v) in &acked {
                assert_eq!(get(&db, k).as_deref(), Some(v.as_str()), "round {round}: {k} lost");
            }
            assert_eq!(db.len(), acked.len() as u64, "round {round}: a torn record came back");
            for i in 0..50 {
                let (k, v) = (format!("k{round}-{i}"), format!("value-{round}-{i}-{}", "x".repeat(i * 7)));
                set(&db, &k, &v);
                acked.push((k, v));
            }
            // One more record that will be torn below.
            set(&db, &format!("torn{round}"), &"t".repeat(300));
        }
        let last = segments(dir.path()).pop().unwrap();
        let len = std::fs::metadata(&last).unwrap().len();
        // Cut part of the last record; in odd rounds also leave garbage where it stood.
        let f = OpenOptions::new().write(true).open(&last).unwrap();
        f.set_len(len - 1 - (round as u64 * 37) % 200).unwrap();
        if round % 2 == 1 {
            let mut f = OpenOptions::new().append(true).open(&last).unwrap();
            f.write_all(&[0u8; 64]).unwrap();
        }
    }
    let db = open(dir.path(), Fsync::Always);
    assert_eq!(db.len(), acked.len() as u64);
    for (k, v) in &acked {
        assert_eq!(get(&db, k).as_deref(), Some(v.as_str()));
    }
}

#[test]
fn damage_before_the_tail_refuses_to_open() {
    let dir = TempDir::new("corrupt");
    {
        let db = basalt_storage::Db::open(basalt_storage::Options::new(dir.path()).segment_bytes(4096)).unwrap();
        for i in 0..200 {
            set(&db, &format!("key{i}"), &"v".repeat(100));
        }
    }
    let segs = segments(dir.path());
    assert!(segs.len() > 2, "expected several segments, got {}", segs.len());
    let mut data = std::fs::read(&segs[0]).unwrap();
    data[20] ^= 0xff;
    std::fs::write(&segs[0], data).unwrap();
    match basalt_storage::Db::open(basalt_storage::Options::new(dir.path())) {
        Err(basalt_storage::StorageError::Corrupt { .. }) => {}
        Err(e) => panic!("expected Corrupt, got {e}"),
        Ok(_) => panic!("opened a log damaged before its tail"),
    }
}
