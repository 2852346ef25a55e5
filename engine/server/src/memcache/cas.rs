//! The CAS unique of each item: what memcached keeps beside a value and Redis does not (the
//! item's flags are stored with the value in the log, `Entry::flags`). Uniques live here, in
//! memory, keyed by item, with a fingerprint of the value they belong to: once the value is
//! changed by anyone else (a RESP `SET`, an `APPEND`, a restart that leaves the table empty)
//! the fingerprint no longer matches and the item gets a fresh unique, so a `cas` based on
//! the old one fails as it must. A restart hands out fresh uniques, as memcached's does.
//!
//! Lock order: a storage shard (inside `Db::update`/`read` closures), then a table shard.

use bytes::Bytes;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

#[derive(Clone, Copy, Debug)]
struct Unique {
    cas: u64,
    fingerprint: u64,
}

const SHARDS: usize = 64;

pub struct CasTable {
    shards: Vec<Mutex<HashMap<Bytes, Unique>>>,
    /// Records in all shards. While it is 0 (no client used `gets`) checks and removals skip
    /// the hash and the lock: the common case costs one atomic load.
    records: AtomicUsize,
    next_cas: AtomicU64,
    hasher: std::collections::hash_map::RandomState,
}

impl Default for CasTable {
    fn default() -> CasTable {
        CasTable {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
            records: AtomicUsize::new(0),
            next_cas: AtomicU64::new(1),
            hasher: std::collections::hash_map::RandomState::new(),
        }
    }
}

impl CasTable {
    fn hash(&self, bytes: &[u8]) -> u64 {
        let mut h = self.hasher.build_hasher();
        h.write(bytes);
        h.finish()
    }

    fn shard(&self, key: &[u8]) -> std::sync::MutexGuard<'_, HashMap<Bytes, Unique>> {
        let i = (self.hash(key) as usize) % SHARDS;
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The CAS unique of `key` holding `value`; an item without a matching record gets a
    /// fresh one (remembered, so two `gets` agree).
    pub fn get(&self, key: &[u8], value: &[u8]) -> u64 {
        let fingerprint = self.hash(value);
        let mut shard = self.shard(key);
        match shard.get(key) {
            Some(u) if u.fingerprint == fingerprint => u.cas,
            _ => {
                let unique = Unique { cas: self.next_cas.fetch_add(1, Relaxed), fingerprint };
                if shard.insert(Bytes::copy_from_slice(key), unique).is_none() {
                    self.records.fetch_add(1, Relaxed);
                }
                unique.cas
            }
        }
    }

    /// Whether `cas` is the current CAS unique of `key` holding `value`.
    pub fn matches(&self, key: &[u8], value: &[u8], cas: u64) -> bool {
        if self.records.load(Relaxed) == 0 {
            return false;
        }
        let fingerprint = self.hash(value);
        matches!(self.shard(key).get(key), Some(u) if u.fingerprint == fingerprint && u.cas == cas)
    }

    /// Retires the unique of `key` (a memcached write stored a new value, even if its bytes
    /// are the same): its next `gets` hands out a fresh one.
    pub fn remove(&self, key: &[u8]) {
        if self.records.load(Relaxed) == 0 {
            return;
        }
        if self.shard(key).remove(key).is_some() {
            self.records.fetch_sub(1, Relaxed);
        }
    }

    pub fn clear(&self) {
        for shard in &self.shards {
            let mut shard = shard.lock().unwrap_or_else(|e| e.into_inner());
            self.records.fetch_sub(shard.len(), Relaxed);
            shard.clear();
        }
    }
}
