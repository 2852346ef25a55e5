//! What `import` refuses and skips, on RDBs made with basalt-rdb's own writer: keys already
//! expired are skipped, a database past `--databases`, a file over the size limit and a key
//! given twice are refused (leaving the dir as it was), and an encrypted data dir round-trips
//! with its key file.

mod common;

use basalt_rdb::{export, import, ExportOptions, ImportOptions, Item, Limits, Reader, ToolError, Writer};
use basalt_storage::{Cipher, Db, Options, Value};
use bytes::Bytes;
use common::TempDir;
use std::path::Path;
use std::sync::Arc;

fn s(v: &str) -> Value {
    Value::Str(Bytes::copy_from_slice(v.as_bytes()))
}

/// An RDB of `(db, key, value, expiry)`, databases in the order given.
fn write_rdb(path: &Path, keys: &[(u64, &str, Value, Option<u64>)]) {
    let mut w = Writer::new(std::fs::File::create(path).unwrap()).unwrap();
    let mut current = None;
    for (db, key, value, at) in keys {
        if current != Some(*db) {
            w.select_db(*db, 1, 0).unwrap();
            current = Some(*db);
        }
        w.key(key.as_bytes(), value, *at).unwrap();
    }
    w.finish().unwrap();
}

#[test]
fn skips_expired_refuses_what_it_cannot_keep() {
    let tmp = TempDir::new("rules");
    let later = basalt_storage::now_ms() + 3_600_000;
    let rdb = tmp.path().join("a.rdb");
    write_rdb(&rdb, &[(0, "live", s("1"), Some(later)), (0, "gone", s("2"), Some(1000)), (0, "plain", s("3"), None), (3, "three", s("4"), None)]);

    let data = tmp.path().join("d1");
    let report = import(&ImportOptions::new(&rdb, &data)).unwrap();
    assert_eq!((report.total_keys(), report.expired_skipped), (3, 1));
    {
        let db = Db::open(Options::new(&data)).unwrap();
        assert_eq!(db.read(b"live", |e| e.cloned()).unwrap().unwrap().expires_at_ms, Some(later));
        assert!(db.read(b"gone", |e| e.is_none()).unwrap());
        assert_eq!(db.keyspace(3).read(b"three", |e| e.map(|e| e.value.clone())).unwrap(), Some(s("4")));
    }

    // Database 20 needs --databases 21 or more.
    let rdb20 = tmp.path().join("db20.rdb");
    write_rdb(&rdb20, &[(20, "k", s("v"), None)]);
    let data = tmp.path().join("d2");
    let err = import(&ImportOptions::new(&rdb20, &data)).unwrap_err();
    assert!(err.to_string().contains("--databases 21"), "{err}");
    assert!(!data.exists(), "a failed import removes the dir it made");
    let mut opts = ImportOptions::new(&rdb20, &data);
    opts.databases = 32;
    assert_eq!(import(&opts).unwrap().total_keys(), 1);

    // Over the size limit: refused before anything is written.
    let data = tmp.path().join("d3");
    std::fs::create_dir(&data).unwrap();
    let mut opts = ImportOptions::new(&rdb, &data);
    opts.max_rdb_bytes = 16;
    let err = import(&opts).unwrap_err();
    assert!(matches!(err, ToolError::Refused(_)) && err.to_string().contains("--max-rdb-bytes"), "{err}");
    assert_eq!(std::fs::read_dir(&data).unwrap().count(), 0);

    // A key twice in one database.
    let dup = tmp.path().join("dup.rdb");
    write_rdb(&dup, &[(0, "k", s("1"), None), (0, "k", s("2"), None)]);
    let err = import(&ImportOptions::new(&dup, &data)).unwrap_err();
    assert!(err.to_string().contains("appears twice"), "{err}");
    assert_eq!(std::fs::read_dir(&data).unwrap().count(), 0, "the existing dir is left empty");
}

#[test]
fn encrypted_data_dir_round_trip() {
    let tmp = TempDir::new("encrypted");
    let key_file = tmp.path().join("key");
    std::fs::write(&key_file, "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n").unwrap();
    let cipher = Some(Arc::new(Cipher::from_key_file(&key_file).unwrap()));
    let rdb = tmp.path().join("a.rdb");
    let mut list = std::collections::VecDeque::new();
    list.extend([Bytes::from("x"), Bytes::from("y")]);
    write_rdb(&rdb, &[(0, "secret", s("value"), None), (0, "list", Value::List(list.clone()), None)]);

    let data = tmp.path().join("data");
    let mut opts = ImportOptions::new(&rdb, &data);
    opts.cipher = cipher.clone();
    import(&opts).unwrap();
    let segment = std::fs::read_dir(&data).unwrap().flatten().find(|e| e.file_name().to_string_lossy().starts_with("wal-")).unwrap();
    let raw = std::fs::read(segment.path()).unwrap();
    assert!(!raw.windows(6).any(|w| w == b"secret"), "keys are sealed in the log");
    assert!(Db::open(Options::new(&data)).is_err(), "the dir needs its key");

    // Export without the key is refused; with it the RDB holds the keys in the clear.
    let out = tmp.path().join("out.rdb");
    assert!(export(&ExportOptions::new(&data, &out)).is_err());
    let mut eopts = ExportOptions::new(&data, &out);
    eopts.cipher = cipher;
    assert_eq!(export(&eopts).unwrap().keys[&0], 2);
    let mut r = Reader::new(std::fs::File::open(&out).unwrap(), Limits::default()).unwrap();
    let mut keys = Vec::new();
    while let Some(item) = r.next_item().unwrap() {
        if let Item::Key(kv) = item {
            keys.push((kv.key, kv.value));
        }
    }
    keys.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(keys, vec![(Bytes::from("list"), Value::List(list)), (Bytes::from("secret"), s("value"))]);
}
