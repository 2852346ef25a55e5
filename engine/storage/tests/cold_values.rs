//! Recovery scenario: a data set 4x `maxmemory`. Values beyond the bound leave memory and are
//! read back from the log on demand, before and after a restart. Values read often stay in
//! memory when the bound is lowered under the data.

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

/// A hot tenth of the keys, read between reads of random others, stays in memory once the
/// bound is lowered to hold a quarter of the values: every shard keeps its part of the values
/// and drops its coldest. Eviction used to start with the shard that had just loaded a value
/// and take all of a lowered bound's excess from the first shards, which left three shards in
/// four without values for good: their hot keys were read from disk on every other read.
#[test]
fn hot_values_stay_in_memory_when_the_bound_is_lowered() {
    let dir = TempDir::new("cold-hot");
    let db = Db::open(Options::new(dir.path()).fsync(Fsync::No)).unwrap();
    let n = 8_000;
    let key = |i: usize| format!("key:{i}");
    for i in 0..n {
        let ((), _) = db.update(key(i).as_bytes(), |s| {
            s.put(Entry::new(Value::Str(Bytes::from(vec![b'v'; 512]))));
        })
        .unwrap();
    }
    db.wait_durable_blocking(db.stats().appended_lsn).unwrap();
    // Value::mem_size of a 512-byte string: its bytes and 32.
    let values = n as u64 * (512 + 32);
    let keys = db.stats().used_memory - values;
    db.set_maxmemory(keys + values / 4);
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut hot_hits = 0;
    for round in 0..20 {
        let before = db.stats().cache_hits;
        for i in 0..n / 10 {
            db.read(key(i * 10).as_bytes(), |e| assert!(e.is_some())).unwrap();
        }
        if round >= 15 {
            hot_hits += db.stats().cache_hits - before;
        }
        // Items remember when they were read to 64 ms (`shard::access_clock`).
        std::thread::sleep(std::time::Duration::from_millis(70));
        for _ in 0..n / 10 {
            db.read(key(xorshift(&mut rng) as usize % n).as_bytes(), |e| assert!(e.is_some())).unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(70));
    }
    let hot_reads = 5 * n as u64 / 10;
    // Sampled LRU (5 samples a shard) keeps about 91 % here; the eviction of before, 22-26 %.
    assert!(hot_hits * 10 >= hot_reads * 8, "{hot_hits} of {hot_reads} hot reads found their value in memory");
    assert!(db.stats().used_memory <= keys + values / 4 + 4096, "{:?}", db.stats());
}
