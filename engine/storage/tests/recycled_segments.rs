//! A compacted segment's file is used again for a new segment (wal.rs `recycle`): its old
//! records, past the new segment's own, are never read as log (their CRCs are salted with
//! their own segment's id), a full copy for a replica gives out records that check
//! unsalted, and a log written before salts is read and goes on.

mod common;
use basalt_storage::{record_len, Db, Fsync, Options};
use common::*;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Duration, Instant};

fn opts(dir: &Path) -> Options {
    Options::new(dir).fsync(Fsync::EverySec).segment_bytes(64 * 1024).compact_min_bytes(128 * 1024)
}

/// 100 keys, each value the same length, so records of every round lie at the same offsets
/// of their segments: an old record starts exactly where the new ones end.
fn value(round: usize, k: usize) -> String {
    format!("{round:06}-{k:03}-{}", "v".repeat(400))
}

fn write_round(db: &Db, round: usize) {
    for k in 0..100 {
        set(db, &format!("k{k:03}"), &value(round, k));
    }
}

/// Writes rounds until `done` holds; the last round written.
fn write_until(db: &Db, mut round: usize, what: &str, done: impl Fn() -> bool) -> usize {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "{what} within 30 s: {:?}", db.stats());
        round += 1;
        write_round(db, round);
        std::thread::sleep(Duration::from_millis(5));
    }
    round
}

#[test]
fn a_used_again_file_s_old_records_are_not_read_as_log() {
    let dir = TempDir::new("recycled");
    let spare = dir.path().join("wal.spare");
    let db = Db::open(opts(dir.path())).unwrap();
    // Compaction keeps a compacted segment's file as the spare (read through one descriptor:
    // the maintenance thread may take it meanwhile)...
    let kept = std::cell::RefCell::new(None);
    let round = write_until(&db, 0, "a spare file", || {
        let Ok(mut f) = std::fs::File::open(&spare) else { return false };
        let mut old = Vec::new();
        std::io::Read::read_to_end(&mut f, &mut old).unwrap();
        *kept.borrow_mut() = Some((f.metadata().unwrap().ino(), old));
        true
    });
    let (inode, old) = kept.into_inner().unwrap();
    // ...and the log's next segment takes it.
    let reused = || segments(dir.path()).into_iter().find(|p| std::fs::metadata(p).is_ok_and(|m| m.ino() == inode));
    let last = write_until(&db, round, "a segment in the spare's file", || reused().is_some());
    let segment = reused().unwrap();
    drop(db);

    // What a crash leaves in a used-again file: the new records, then the old file's bytes
    // (shutdown cut them off; they are put back). Their records would check unsalted, lie at
    // record boundaries, and hold older values of the same keys.
    let mut bytes = std::fs::read(&segment).unwrap();
    assert!(bytes.len() < old.len(), "the segment holds {} bytes, its old file {}", bytes.len(), old.len());
    bytes.extend_from_slice(&old[bytes.len()..]);
    std::fs::write(&segment, &bytes).unwrap();

    let db = Db::open(opts(dir.path())).unwrap();
    assert_eq!(db.len(), 100);
    for k in 0..100 {
        assert_eq!(get(&db, &format!("k{k:03}")), Some(value(last, k)), "k{k:03}");
    }
    // The log goes on after the segment's own records.
    set(&db, "after", "crash");
    drop(db);
    let db = Db::open(opts(dir.path())).unwrap();
    assert_eq!(get(&db, "after").as_deref(), Some("crash"));
    assert_eq!(get(&db, "k000"), Some(value(last, 0)));
}

/// A full copy read in pieces of every size (a CRC split between two reads included) gives
/// records a replica applies: the copy's bytes are its records, unsalted.
#[test]
fn a_full_copy_of_salted_segments_gives_unsalted_records() {
    let dir = TempDir::new("recycled-copy");
    let db = Db::open(opts(dir.path()).compact_min_bytes(u64::MAX)).unwrap();
    for round in 0..3 {
        write_round(&db, round);
    }
    assert!(segments(dir.path()).len() >= 3, "the copy spans several segments");
    let (copy, ()) = db.log_copy_at_end(|| ()).unwrap();
    for piece in [1usize, 3, 7, 4096, 65_536] {
        let mut bytes = Vec::new();
        let mut buf = vec![0u8; piece];
        loop {
            let n = copy.read_at(bytes.len() as u64, &mut buf).unwrap();
            if n == 0 {
                break;
            }
            bytes.extend_from_slice(&buf[..n]);
        }
        assert_eq!(bytes.len() as u64, copy.len());
        let into = TempDir::new("recycled-copy-replica");
        let replica = Db::open(opts(into.path())).unwrap();
        let mut at = 0;
        while at < bytes.len() {
            let len = record_len(&bytes[at..]).unwrap();
            replica.apply_replicated(&bytes[at..at + len], None).unwrap_or_else(|e| panic!("pieces of {piece}: record at {at}: {e}"));
            at += len;
        }
        assert_eq!(replica.len(), 100);
        for k in 0..100 {
            assert_eq!(get(&replica, &format!("k{k:03}")), Some(value(2, k)));
        }
    }
}

/// A log from before salts: its segment is read and appended to as it was written (unsalted),
/// and the log goes on in salted segments, across reopens.
#[test]
fn a_log_from_before_salts_is_read_and_goes_on() {
    let dir = TempDir::new("recycled-old-log");
    let old: Vec<u8> = (0..3).flat_map(|k| old_record(format!("old{k}").as_bytes(), b"from before")).collect();
    std::fs::write(dir.path().join("wal-0000000001.log"), &old).unwrap();
    for round in 0..3 {
        let db = Db::open(Options::new(dir.path()).fsync(Fsync::EverySec).segment_bytes(4096)).unwrap();
        for k in 0..3 {
            assert_eq!(get(&db, &format!("old{k}")).as_deref(), Some("from before"), "round {round}");
        }
        for r in 0..round {
            for k in 0..20 {
                assert_eq!(get(&db, &format!("r{r}-{k}")), Some(value(r, k)), "round {round}");
            }
        }
        // 20 records of ~440 bytes: the first into the old segment, then new ones.
        for k in 0..20 {
            set(&db, &format!("r{round}-{k}"), &value(round, k));
        }
    }
    assert!(segments(dir.path()).len() >= 4, "{:?}", segments(dir.path()));
    let first = std::fs::read(dir.path().join("wal-0000000001.log")).unwrap();
    assert!(first.len() > old.len() && first.starts_with(&old), "the old segment was appended to");
}
