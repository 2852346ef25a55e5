//! What memcached keeps beside a value and Redis does not: the client's 32-bit flags and the
//! CAS unique. They live here, in memory, keyed by item, with a fingerprint of the value they
//! belong to: once the value is changed by anyone else (a RESP `SET`, an `APPEND`, a restart
//! that leaves the table empty) the fingerprint no longer matches, the flags read as 0 and
//! the item gets a fresh CAS unique, so a `cas` based on the old one fails as it must.
//!
//! Lock order: a storage shard (inside `Db::update`/`read` closures), then a table shard.

use bytes::Bytes;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

#[derive(Clone, Copy, Debug)]
pub struct Meta {
    pub flags: u32,
    pub cas: u64,
    fingerprint: u64,
}

const SHARDS: usize = 64;

pub struct MetaTable {
    shards: Vec<Mutex<HashMap<Bytes, Meta>>>,
    /// Records in all shards. While it is 0 (no client used flags or `gets`) lookups and
    /// removals skip the hash and the lock: the common case costs one atomic load.
    records: AtomicUsize,
    next_cas: AtomicU64,
    hasher: std::collections::hash_map::RandomState,
}

impl Default for MetaTable {
    fn default() -> MetaTable {
        MetaTable {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
            records: AtomicUsize::new(0),
            next_cas: AtomicU64::new(1),
            hasher: std::collections::hash_map::RandomState::new(),
        }
    }
}

impl MetaTable {
    fn hash(&self, bytes: &[u8]) -> u64 {
        let mut h = self.hasher.build_hasher();
        h.write(bytes);
        h.finish()
    }

    fn shard(&self, key: &[u8]) -> std::sync::MutexGuard<'_, HashMap<Bytes, Meta>> {
        let i = (self.hash(key) as usize) % SHARDS;
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Flags and CAS unique of `key` holding `value`; an item without a matching record gets
    /// flags 0 and a fresh CAS unique (remembered, so two `gets` agree).
    pub fn get(&self, key: &[u8], value: &[u8]) -> Meta {
        let fingerprint = self.hash(value);
        let mut shard = self.shard(key);
        match shard.get(key) {
            Some(m) if m.fingerprint == fingerprint => *m,
            _ => {
                let meta = Meta { flags: 0, cas: self.next_cas.fetch_add(1, Relaxed), fingerprint };
                if shard.insert(Bytes::copy_from_slice(key), meta).is_none() {
                    self.records.fetch_add(1, Relaxed);
                }
                meta
            }
        }
    }

    /// The flags of `key` holding `value` (0 without a matching record); creates nothing, so
    /// a plain `get` costs one lookup.
    pub fn flags(&self, key: &[u8], value: &[u8]) -> u32 {
        if self.records.load(Relaxed) == 0 {
            return 0;
        }
        match self.shard(key).get(key) {
            Some(m) if m.fingerprint == self.hash(value) => m.flags,
            _ => 0,
        }
    }

    /// Records that `key` now holds `value` with `flags`. Flags 0 need no record (an item
    /// without one reads as flags 0 and gets a CAS unique on its first `gets`), so the common
    /// case costs a removal, not a value hash and an allocation; removing also retires any
    /// CAS unique handed out for the old value, even when the new bytes are the same.
    pub fn stored(&self, key: &[u8], value: &[u8], flags: u32) {
        if flags == 0 {
            self.remove(key);
            return;
        }
        let cas = self.next_cas.fetch_add(1, Relaxed);
        let meta = Meta { flags, cas, fingerprint: self.hash(value) };
        if self.shard(key).insert(Bytes::copy_from_slice(key), meta).is_none() {
            self.records.fetch_add(1, Relaxed);
        }
    }

    /// Whether `cas` is the current CAS unique of `key` holding `value`.
    pub fn cas_matches(&self, key: &[u8], value: &[u8], cas: u64) -> bool {
        if self.records.load(Relaxed) == 0 {
            return false;
        }
        let fingerprint = self.hash(value);
        matches!(self.shard(key).get(key), Some(m) if m.fingerprint == fingerprint && m.cas == cas)
    }

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
