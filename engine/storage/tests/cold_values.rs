//! Recovery scenario: a data set 4x `maxmemory`. Values beyond the bound leave memory and are
//! read back from the log on demand, before and after a restart.

mod common;
use basalt_storage::{Db, Entry, Fsync, Options, Value};
use bytes::Bytes;
use common::*;

const MAXMEMORY: u64 = 1 << 20;

fn value_of(i: usize) -> Vec<u8> {
    let mut v = format!("value-{i}-").into_bytes();
    v.resize(4096, b'a' + (i % 26) as u8);
    v
}

#[test]
fn four_times_maxmemory_reads_back() {
    let dir = TempDir::new("cold");
    let n = (4 * MAXMEMORY / 4096) as usize;
    for round in 0..3 {
        let db = Db::open(Options::new(dir.path()).fsync(Fsync::No).maxmemory(MAXMEMORY)).unwrap();
        if round == 0 {
            for i in 0..n {
                let ((), lsn) = db
                    .update(format!("key:{i}").as_bytes(), |s| {
                        s.put(Entry::new(Value::Str(Bytes::from(value_of(i)))));
                    })
                    .unwrap();
                db.wait_durable_blocking(lsn).unwrap();
            }
        }
        let stats = db.stats();
        assert_eq!(stats.keys, n as u64);
        assert!(stats.used_memory <= MAXMEMORY + 64 * 1024, "round {round}: used {} > max", stats.used_memory);
        for i in (0..n).rev() {
            let ok = db
                .read(format!("key:{i}").as_bytes(), |e| matches!(e.map(|e| &e.value), Some(Value::Str(b)) if b[..] == value_of(i)[..]))
                .unwrap();
            assert!(ok, "round {round}: key:{i} wrong or missing");
        }
        let stats = db.stats();
        assert!(stats.cache_misses > 0, "round {round}: nothing was read from disk");
        assert!(stats.evicted_values > 0 || round > 0);
        assert!(stats.used_memory <= MAXMEMORY + 64 * 1024, "round {round}: used {} after reads", stats.used_memory);
    }
}
