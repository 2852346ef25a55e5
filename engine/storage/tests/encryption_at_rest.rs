//! Encryption at rest: a store opened with a cipher writes keys and values sealed, reads them
//! back across reopens (cold values beyond `maxmemory` and compacted segments included), and
//! refuses a wrong key, a missing key, and a key on a plaintext dir with a clear error.

mod common;
use basalt_storage::{Cipher, Db, Fsync, Options, StorageError, Value};
use bytes::Bytes;
use common::*;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn cipher_from(dir: &Path, name: &str, hex_byte: &str) -> Arc<Cipher> {
    let path = dir.join(name);
    std::fs::write(&path, format!("{}\n", hex_byte.repeat(32))).unwrap();
    Arc::new(Cipher::from_key_file(&path).unwrap())
}

fn open_err(opts: Options) -> String {
    match Db::open(opts) {
        Ok(_) => panic!("open must be refused"),
        Err(e @ StorageError::Encryption(_)) => e.to_string(),
        Err(other) => panic!("expected an encryption error, got {other}"),
    }
}

/// Every byte of every log segment in `dir`.
fn segments(dir: &Path) -> Vec<u8> {
    let mut all = Vec::new();
    for ent in std::fs::read_dir(dir).unwrap() {
        let p = ent.unwrap().path();
        if p.extension().is_some_and(|e| e == "log") {
            all.extend(std::fs::read(&p).unwrap());
        }
    }
    all
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn encrypted_store_round_trips_and_refuses_wrong_keys() {
    let keys = TempDir::new("enc-keys");
    let dir = TempDir::new("enc");
    let cipher = cipher_from(keys.path(), "right.key", "5a");
    let opts = |c: Option<Arc<Cipher>>| {
        Options::new(dir.path())
            .fsync(Fsync::EverySec)
            .segment_bytes(64 * 1024)
            .compact_min_bytes(256 * 1024)
            .maxmemory(32 * 1024)
            .cipher(c)
    };
    let mut model: HashMap<String, String> = HashMap::new();
    let mut cold_reads = 0;
    for round in 0..3 {
        let db = Db::open(opts(Some(cipher.clone()))).unwrap();
        for (k, v) in &model {
            assert_eq!(get(&db, k).as_deref(), Some(v.as_str()), "round {round}: {k}");
        }
        assert_eq!(db.len(), model.len() as u64, "round {round}");
        cold_reads += db.stats().cache_misses;
        for i in 0..4000 {
            let k = format!("secretkey{}", i % 200);
            if i % 13 == 0 {
                let ((), lsn) = db.update(k.as_bytes(), |s| {
                    s.remove();
                })
                .unwrap();
                db.wait_durable_blocking(lsn).unwrap();
                model.remove(&k);
            } else {
                let v = format!("secretvalue-{round}-{i}-{}", "p".repeat(300));
                set(&db, &k, &v);
                model.insert(k, v);
            }
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while db.stats().compactions == 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let stats = db.stats();
        assert!(stats.compactions > 0, "round {round}: no compaction ({stats:?})");
        assert!(stats.evicted_values > 0, "round {round}: nothing went cold ({stats:?})");
        // Cold values read back through the cipher.
        for (k, v) in &model {
            assert_eq!(get(&db, k).as_deref(), Some(v.as_str()), "round {round} after compaction: {k}");
        }
        cold_reads += db.stats().cache_misses;
    }
    assert!(cold_reads > 0, "no value was read back from the log");

    // A collection type too, then the raw log: none of the plaintext keys or values.
    {
        let db = Db::open(opts(Some(cipher.clone()))).unwrap();
        let ((), lsn) = db
            .update(b"secrethash", |s| {
                let mut set = HashSet::new();
                set.insert(Bytes::from_static(b"secretmember"));
                s.put(basalt_storage::Entry::new(Value::Set(Box::new(set))));
            })
            .unwrap();
        db.wait_durable_blocking(lsn).unwrap();
        db.sync().unwrap();
    }
    let raw = segments(dir.path());
    assert!(raw.len() > 64 * 1024, "log too small to mean anything: {}", raw.len());
    for needle in [&b"secretkey"[..], b"secretvalue", b"pppppppp", b"secrethash", b"secretmember"] {
        assert!(!contains(&raw, needle), "plaintext {:?} found in the log", String::from_utf8_lossy(needle));
    }

    // Wrong key and missing key: clear errors, no replay of garbage.
    let wrong = cipher_from(keys.path(), "wrong.key", "a5");
    assert!(open_err(opts(Some(wrong))).contains("wrong encryption key"));
    assert!(open_err(opts(None)).contains("is encrypted"));

    // The right key still opens everything.
    let db = Db::open(opts(Some(cipher.clone()))).unwrap();
    assert_eq!(db.len(), model.len() as u64 + 1);
    for (k, v) in &model {
        assert_eq!(get(&db, k).as_deref(), Some(v.as_str()));
    }
    drop(db);

    // A plaintext dir with data is not opened with a key.
    let plain = TempDir::new("enc-plain");
    {
        let db = open(plain.path(), Fsync::EverySec);
        set(&db, "k", "v");
        db.sync().unwrap();
    }
    let err = open_err(Options::new(plain.path()).cipher(Some(cipher)));
    assert!(err.contains("without encryption"), "{err}");
    assert_eq!(get(&open(plain.path(), Fsync::EverySec), "k").as_deref(), Some("v"));
}
