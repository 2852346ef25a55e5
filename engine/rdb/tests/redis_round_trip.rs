//! Round trip with the real redis-server 7.0: Redis saves every type, `basalt-rdb import` fills
//! a Basalt data dir whose contents (read through basalt-storage) equal Redis'; `basalt-rdb
//! export` writes it back and a second redis-server loads that file with the same contents.

mod common;

use basalt_storage::{Db, Options};
use common::{basalt_rdb, fill, model, Redis, TempDir};

#[test]
fn import_then_export_through_redis() {
    let tmp = TempDir::new("round-trip");
    let redis_dir = tmp.path().join("redis");
    std::fs::create_dir_all(&redis_dir).unwrap();
    let redis = Redis::start(&redis_dir, "dump.rdb");
    let mut c = redis.conn();
    fill::fill(&mut c);
    let saved = model::from_redis(&mut c, 16);
    c.ok(&["SAVE"]).unwrap();
    let rdb = redis_dir.join("dump.rdb");
    // Redis saved the encodings this test means to read.
    for (key, encoding) in [("int", "int"), ("lzf", "raw"), ("list_small", "quicklist"), ("set_int", "intset"), ("set_big", "hashtable"), ("zset_small", "listpack"), ("zset_big", "skiplist"), ("hash_small", "listpack"), ("hash_big", "hashtable")] {
        assert_eq!(c.cmd(&["OBJECT", "ENCODING", key]).text(), encoding, "{key}");
    }
    drop(c);
    drop(redis);
    assert!(saved.len() >= 29, "{} keys", saved.len());

    // A function library is refused unless skipped, and leaves the dir as it was (new).
    let data = tmp.path().join("basalt");
    let out = basalt_rdb().arg("import").arg(&rdb).arg("--data-dir").arg(&data).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--skip-functions"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!data.exists());
    let out = basalt_rdb().arg("import").arg(&rdb).arg("--data-dir").arg(&data).arg("--skip-functions").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains(&format!("imported {} keys", saved.len())) && said.contains("1 function libraries"), "{said}");

    // The data dir opens as basalt-server opens it, holding what Redis held, TTLs included.
    {
        let db = Db::open(Options::new(&data)).unwrap();
        let imported = model::from_basalt(&db);
        assert_eq!(imported.keys().collect::<Vec<_>>(), saved.keys().collect::<Vec<_>>());
        for (k, v) in &saved {
            assert_eq!(&imported[k], v, "key {:?}", String::from_utf8_lossy(&k.1));
        }
    }

    // A non-empty dir is refused.
    let out = basalt_rdb().arg("import").arg(&rdb).arg("--data-dir").arg(&data).arg("--skip-functions").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not empty"));

    // Export, and a fresh redis-server loads the file with the same contents.
    let back_dir = tmp.path().join("back");
    std::fs::create_dir_all(&back_dir).unwrap();
    let out = basalt_rdb().arg("export").arg("--data-dir").arg(&data).arg("--out").arg(back_dir.join("x.rdb")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let loaded = Redis::start(&back_dir, "x.rdb");
    let log = loaded.log();
    assert!(log.contains(&format!("Done loading RDB, keys loaded: {}, keys expired: 0", saved.len())), "{log}");
    let reloaded = model::from_redis(&mut loaded.conn(), 16);
    for (k, v) in &saved {
        assert_eq!(reloaded.get(k), Some(v), "key {:?}", String::from_utf8_lossy(&k.1));
    }
    assert_eq!(reloaded.len(), saved.len());
}
