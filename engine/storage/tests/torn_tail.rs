//! Recovery scenario: the last record is torn (a crash in the middle of a write). Every
//! complete record survives, the torn one is cut, and the log accepts appends after it. A
//! segment ended before it was durable (wal.rs `rotate`) may be torn too: the log is kept up
//! to the damage, and the segment after it is dropped.

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

/// 200 records of ~130 bytes over 4 KB segments; returns the segment files.
fn several_segments(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    {
        let db = basalt_storage::Db::open(basalt_storage::Options::new(dir).segment_bytes(4096)).unwrap();
        for i in 0..200 {
            set(&db, &format!("key{i}"), &"v".repeat(100));
        }
    }
    let segs = segments(dir);
    assert!(segs.len() > 3, "expected several segments, got {}", segs.len());
    segs
}

/// Cuts the last 50 bytes of a segment: its last record is short, as a write a crash tore.
fn tear(segment: &std::path::Path) {
    let len = std::fs::metadata(segment).unwrap().len();
    OpenOptions::new().write(true).open(segment).unwrap().set_len(len - 50).unwrap();
}

fn expect_corrupt(dir: &std::path::Path) -> String {
    match basalt_storage::Db::open(basalt_storage::Options::new(dir)) {
        Err(basalt_storage::StorageError::Corrupt { reason, .. }) => reason,
        Err(e) => panic!("expected Corrupt, got {e}"),
        Ok(_) => panic!("opened a damaged log"),
    }
}

#[test]
fn damage_before_the_tail_refuses_to_open() {
    let dir = TempDir::new("corrupt");
    let segs = several_segments(dir.path());
    let mut data = std::fs::read(&segs[0]).unwrap();
    data[20] ^= 0xff;
    std::fs::write(&segs[0], data).unwrap();
    expect_corrupt(dir.path());
}

#[test]
fn a_torn_second_last_segment_keeps_the_log_up_to_the_damage() {
    let dir = TempDir::new("torn-second-last");
    let segs = several_segments(dir.path());
    // A power loss after the last segment got records but before the one it follows was
    // durable.
    tear(&segs[segs.len() - 2]);
    let opts = || basalt_storage::Options::new(dir.path()).segment_bytes(4096);
    let kept = {
        let db = basalt_storage::Db::open(opts()).unwrap();
        let present: Vec<bool> = (0..200).map(|i| get(&db, &format!("key{i}")).is_some()).collect();
        let kept = present.iter().take_while(|&&p| p).count();
        assert!(present[kept..].iter().all(|&p| !p), "not a prefix of the writes: {present:?}");
        assert!(kept > 0 && kept < 199, "kept {kept} of 200");
        assert_eq!(segments(dir.path()).len(), segs.len() - 1, "the segment after the torn one was not dropped");
        set(&db, "after", "reopened");
        kept
    };
    let db = basalt_storage::Db::open(opts()).unwrap();
    assert_eq!(db.len(), kept as u64 + 1);
    assert_eq!(get(&db, "after").as_deref(), Some("reopened"));
}

#[test]
fn damage_before_the_last_two_segments_refuses_to_open() {
    let dir = TempDir::new("torn-third-last");
    let segs = several_segments(dir.path());
    tear(&segs[segs.len() - 3]);
    expect_corrupt(dir.path());
}

#[test]
fn a_missing_segment_refuses_to_open() {
    let dir = TempDir::new("missing-segment");
    let segs = several_segments(dir.path());
    // A lost file between the oldest and the last: replaying around it would apply what came
    // after records that are gone.
    std::fs::remove_file(&segs[1]).unwrap();
    let reason = expect_corrupt(dir.path());
    assert!(reason.starts_with("missing: the log goes from segment"), "{reason}");
}
