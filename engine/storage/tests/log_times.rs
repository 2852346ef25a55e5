//! Recovery scenario: log format 2, records carry their time. Every segment starts with its
//! head (format, first LSN, time) and a record whose millisecond differs from the one before
//! it gets a time op; the times and LSNs come back at reopen, a replica logs its primary's
//! times, and a log written in format 1 (before times) still opens and is appended to.

mod common;
use basalt_storage::{Db, Fsync, Options, SegmentInfo};
use common::*;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn segments_of(db: &Db) -> Vec<SegmentInfo> {
    db.backup_segments()
}

#[test]
fn times_and_lsns_survive_restart() {
    let dir = TempDir::new("times-restart");
    let before = basalt_storage::now_ms();
    let (listed, last_lsn) = {
        let db = Db::open(Options::new(dir.path()).fsync(Fsync::Always).segment_bytes(4096)).unwrap();
        for i in 0..60 {
            set(&db, &format!("k{i}"), &"v".repeat(100));
            if i % 20 == 0 {
                std::thread::sleep(Duration::from_millis(3));
            }
        }
        db.sync().unwrap();
        (segments_of(&db), db.last_lsn())
    };
    let after = basalt_storage::now_ms();
    assert!(listed.len() > 1, "{listed:?}");
    let mut lsn = 1;
    let mut time = before;
    for s in &listed {
        assert_eq!(s.first_lsn, lsn, "{s:?}");
        assert!(s.first_time_ms >= time && s.last_time_ms >= s.first_time_ms && s.last_time_ms <= after, "{s:?}");
        lsn = s.last_lsn + 1;
        time = s.last_time_ms;
    }
    assert_eq!(lsn - 1, last_lsn);
    for round in 0..2 {
        let db = Db::open(Options::new(dir.path()).fsync(Fsync::Always).segment_bytes(4096)).unwrap();
        assert_eq!(db.last_lsn(), last_lsn + round, "round {round}");
        let again = segments_of(&db);
        assert_eq!(again[..listed.len() - 1], listed[..listed.len() - 1], "round {round}");
        set(&db, "after", "x");
        assert_eq!(db.last_lsn(), last_lsn + round + 1);
    }
}

/// A primary's records reach the replica with the primary's time, not the replica's clock.
#[test]
fn a_replica_logs_its_primarys_times() {
    let (pdir, rdir) = (TempDir::new("times-primary"), TempDir::new("times-replica"));
    let primary = open(pdir.path(), Fsync::Always);
    let sent: Arc<Mutex<Vec<Vec<u8>>>> = Arc::default();
    let into = sent.clone();
    primary.set_stream_hook(Box::new(move |record| into.lock().unwrap().push(record.to_vec())));
    for i in 0..5 {
        set(&primary, &format!("k{i}"), "v");
        std::thread::sleep(Duration::from_millis(2));
    }
    primary.sync().unwrap();
    let written = segments_of(&primary)[0];
    // The replica applies them well after they were written.
    std::thread::sleep(Duration::from_millis(40));
    let replica = open(rdir.path(), Fsync::Always);
    let mut offset = 0;
    for record in sent.lock().unwrap().iter() {
        offset += record.len() as u64;
        let lsn = replica.apply_replicated(record, Some(&([b'a'; 40], offset))).unwrap();
        replica.wait_durable_blocking(lsn).unwrap();
    }
    let logged = segments_of(&replica)[0];
    assert_eq!((logged.first_time_ms, logged.last_time_ms), (written.first_time_ms, written.last_time_ms));
    assert_eq!(get(&replica, "k4").as_deref(), Some("v"));
    drop(replica);
    let replica = open(rdir.path(), Fsync::Always);
    assert_eq!(segments_of(&replica)[0].last_time_ms, written.last_time_ms);
    assert_eq!(replica.recovered_repl_pos(), Some(([b'a'; 40], offset)));
}

/// A segment as the log wrote it before times (salted CRCs, no head, no time ops).
fn format_1_segment(seg: u32, records: &[Vec<u8>]) -> Vec<u8> {
    let salt = seg.wrapping_add(1).wrapping_mul(0x9E37_79B1);
    let mut out = Vec::new();
    for r in records {
        let mut r = r.clone();
        let crc = u32::from_le_bytes(r[0..4].try_into().unwrap()) ^ salt;
        r[0..4].copy_from_slice(&crc.to_le_bytes());
        out.extend(r);
    }
    out
}

fn record(ops: &[u8]) -> Vec<u8> {
    let mut payload = 1u32.to_le_bytes().to_vec();
    payload.extend_from_slice(ops);
    framed(payload)
}

#[test]
fn a_format_1_log_opens_and_is_appended_to() {
    let dir = TempDir::new("times-format-1");
    let first = format_1_segment(1, &[record(&old_put(b"a", b"1")), record(&old_put(b"b", b"2"))]);
    let second = format_1_segment(2, &[record(&old_put(b"c", b"3"))]);
    std::fs::write(dir.path().join("wal-0000000001.log"), first).unwrap();
    std::fs::write(dir.path().join("wal-0000000002.log"), second).unwrap();
    for round in 0..3 {
        let db = open(dir.path(), Fsync::Always);
        assert_eq!((get(&db, "a"), get(&db, "b"), get(&db, "c")), (Some("1".into()), Some("2".into()), Some("3".into())), "round {round}");
        let listed = segments_of(&db);
        // Format 1 records have no time: 0, unknown.
        assert_eq!((listed[0].first_lsn, listed[0].last_lsn, listed[0].last_time_ms), (1, 2, 0), "round {round}");
        assert_eq!(listed[1].first_time_ms, 0);
        if round == 0 {
            // Appended to the format 1 segment: stamped with a time op.
            set(&db, "d", "4");
            db.sync().unwrap();
            assert!(segments_of(&db)[1].last_time_ms > 0);
        } else {
            assert_eq!(get(&db, "d").as_deref(), Some("4"), "round {round}");
            assert!(listed[1].last_time_ms > 0 && listed[1].last_lsn == 4, "{:?}", listed[1]);
        }
    }
}
