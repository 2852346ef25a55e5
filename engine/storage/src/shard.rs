//! One shard: the key map, the expiry index, memory accounting and eviction.
//!
//! The map is an `IndexMap` so that SCAN can walk it by position and eviction and RANDOMKEY
//! can sample it at random in O(1).

use crate::stats::Counters;
use crate::value::{Entry, Kind, Value};
use crate::wal::Loc;
use bytes::Bytes;
use indexmap::IndexMap;
use std::collections::BTreeSet;
use std::sync::atomic::Ordering::Relaxed;

/// Memory charged per key on top of its bytes (map slot, metadata).
pub(crate) const KEY_OVERHEAD: u64 = 160;
/// Memory charged per delta op an item depends on (its place in the log), resident or not.
pub(crate) const CHAIN_ENTRY: u64 = std::mem::size_of::<Loc>() as u64;

pub(crate) struct Item {
    /// The entry; its value is a placeholder while `resident` is false.
    pub entry: Entry,
    pub resident: bool,
    pub kind: Kind,
    pub loc: Loc,
    /// The delta ops logged after `loc`, in log order: the value is the one at `loc` with
    /// each of them applied (see `delta.rs`). Emptied by every whole put.
    pub chain: Vec<Loc>,
    /// Bytes charged for the value while resident.
    pub mem: u64,
    /// Coarse last-access time (unix ms / 64) for eviction.
    pub access: u32,
}

pub(crate) struct Shard {
    pub map: IndexMap<Bytes, Item>,
    /// (expires_at_ms, key) of every key with an expiry.
    pub expires: BTreeSet<(u64, Bytes)>,
    rng: u64,
}

impl Item {
    /// LSN of the last record the value depends on (it can be read back once written).
    pub fn last_lsn(&self) -> u64 {
        self.chain.last().map_or(self.loc.lsn, |d| d.lsn)
    }

    /// The oldest segment the value depends on.
    pub fn first_seg(&self) -> u32 {
        self.loc.seg.min(self.chain.first().map_or(u32::MAX, |d| d.seg))
    }

    /// Whether any record the value depends on is still in a pending transaction record.
    pub fn pending(&self) -> bool {
        self.loc.seg == crate::capture::PENDING_SEG || self.chain.last().is_some_and(|d| d.seg == crate::capture::PENDING_SEG)
    }
}

/// Releases the accounting of a chain of delta ops (the item no longer depends on them).
pub(crate) fn drop_chain(c: &Counters, chain: &mut Vec<Loc>) {
    if chain.is_empty() {
        return;
    }
    let live: i64 = chain.iter().map(|d| d.op_len as i64).sum();
    c.live_bytes.fetch_sub(live, Relaxed);
    c.used_memory.fetch_sub(CHAIN_ENTRY * chain.len() as u64, Relaxed);
    *chain = Vec::new();
}

pub(crate) fn placeholder() -> Value {
    Value::Str(Bytes::new())
}

pub(crate) fn access_clock(now_ms: u64) -> u32 {
    (now_ms >> 6) as u32
}

impl Shard {
    pub fn new(seed: u64) -> Shard {
        Shard { map: IndexMap::new(), expires: BTreeSet::new(), rng: seed | 1 }
    }

    pub fn random(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545F4914F6CDD1D)
    }

    /// Inserts or replaces `key` with a resident entry whose latest copy is at `loc`.
    pub fn upsert(&mut self, c: &Counters, key: &[u8], entry: Entry, loc: Loc, now_ms: u64) {
        let mem = entry.value.mem_size() as u64;
        let kind = entry.value.kind();
        let new_exp = entry.expires_at_ms;
        c.live_bytes.fetch_add(loc.op_len as i64, Relaxed);
        c.used_memory.fetch_add(mem, Relaxed);
        match self.map.get_full_mut(key) {
            Some((_, k, item)) => {
                if item.resident {
                    c.used_memory.fetch_sub(item.mem, Relaxed);
                }
                c.live_bytes.fetch_sub(item.loc.op_len as i64, Relaxed);
                drop_chain(c, &mut item.chain);
                let old_exp = item.entry.expires_at_ms;
                *item = Item { entry, resident: true, kind, loc, chain: Vec::new(), mem, access: access_clock(now_ms) };
                if old_exp != new_exp {
                    let k = k.clone();
                    if let Some(t) = old_exp {
                        self.expires.remove(&(t, k.clone()));
                        c.expires.fetch_sub(1, Relaxed);
                    }
                    if let Some(t) = new_exp {
                        self.expires.insert((t, k));
                        c.expires.fetch_add(1, Relaxed);
                    }
                }
            }
            None => {
                let k = Bytes::copy_from_slice(key);
                c.used_memory.fetch_add(key.len() as u64 + KEY_OVERHEAD, Relaxed);
                c.keys.fetch_add(1, Relaxed);
                if let Some(t) = new_exp {
                    self.expires.insert((t, k.clone()));
                    c.expires.fetch_add(1, Relaxed);
                }
                self.map.insert(k, Item { entry, resident: true, kind, loc, chain: Vec::new(), mem, access: access_clock(now_ms) });
            }
        }
    }

    /// Inserts a key whose value stays on disk (recovery beyond `maxmemory`).
    pub fn insert_cold(&mut self, c: &Counters, key: &[u8], head: (Kind, u32), expires_at_ms: Option<u64>, loc: Loc) {
        let (kind, flags) = head;
        self.remove(c, key);
        let k = Bytes::copy_from_slice(key);
        c.live_bytes.fetch_add(loc.op_len as i64, Relaxed);
        c.used_memory.fetch_add(key.len() as u64 + KEY_OVERHEAD, Relaxed);
        c.keys.fetch_add(1, Relaxed);
        if let Some(t) = expires_at_ms {
            self.expires.insert((t, k.clone()));
            c.expires.fetch_add(1, Relaxed);
        }
        let entry = Entry { value: placeholder(), expires_at_ms, flags };
        self.map.insert(k, Item { entry, resident: false, kind, loc, chain: Vec::new(), mem: 0, access: 0 });
    }

    /// Removes `key`; returns whether it was there.
    pub fn remove(&mut self, c: &Counters, key: &[u8]) -> bool {
        match self.map.swap_remove_entry(key) {
            Some((k, item)) => {
                self.forget(c, k, item);
                true
            }
            None => false,
        }
    }

    pub fn remove_index(&mut self, c: &Counters, i: usize) {
        if let Some((k, item)) = self.map.swap_remove_index(i) {
            self.forget(c, k, item);
        }
    }

    /// Puts back the value of an existing `key` changed by delta ops logged at `loc`
    /// (`mem` is the change of its size): the item depends on one more op.
    pub fn add_delta(&mut self, c: &Counters, key: &[u8], value: crate::value::Value, loc: Loc, mem: i64, now_ms: u64) {
        let Some(item) = self.map.get_mut(key) else { return };
        item.entry.value = value;
        item.access = access_clock(now_ms);
        if item.resident {
            item.mem = (item.mem as i64 + mem).max(0) as u64;
            if mem >= 0 {
                c.used_memory.fetch_add(mem as u64, Relaxed);
            } else {
                c.used_memory.fetch_sub(mem.unsigned_abs(), Relaxed);
            }
        }
        c.live_bytes.fetch_add(loc.op_len as i64, Relaxed);
        c.used_memory.fetch_add(CHAIN_ENTRY, Relaxed);
        item.chain.push(loc);
    }

    fn forget(&mut self, c: &Counters, k: Bytes, mut item: Item) {
        drop_chain(c, &mut item.chain);
        if item.resident {
            c.used_memory.fetch_sub(item.mem, Relaxed);
        }
        c.used_memory.fetch_sub(k.len() as u64 + KEY_OVERHEAD, Relaxed);
        c.keys.fetch_sub(1, Relaxed);
        c.live_bytes.fetch_sub(item.loc.op_len as i64, Relaxed);
        if let Some(t) = item.entry.expires_at_ms {
            self.expires.remove(&(t, k));
            c.expires.fetch_sub(1, Relaxed);
        }
    }

    /// Drops every key.
    pub fn clear(&mut self, c: &Counters) {
        for (k, item) in std::mem::take(&mut self.map) {
            self.forget(c, k, item);
        }
        self.expires.clear();
    }

    /// Removes keys whose expiry has passed, at most `limit`; returns how many.
    /// `touched` hears of each removed key (WATCH).
    pub fn sweep_expired(&mut self, c: &Counters, now_ms: u64, limit: usize, touched: &dyn Fn(&[u8])) -> usize {
        let mut n = 0;
        while n < limit {
            let Some((t, k)) = self.expires.first().cloned() else { break };
            if t > now_ms {
                break;
            }
            self.remove(c, &k);
            touched(&k);
            c.expired_keys.fetch_add(1, Relaxed);
            n += 1;
        }
        n
    }

    /// Evicts values (not keys) of written-out entries until `over` bytes are freed or no
    /// candidate is found; approximates LRU by taking the oldest of 5 random samples.
    pub fn evict(&mut self, c: &Counters, mut over: u64, written_lsn: u64) -> u64 {
        let mut freed = 0;
        let mut misses = 0;
        while over > 0 && !self.map.is_empty() && misses < 8 {
            let mut best: Option<(usize, u32)> = None;
            for _ in 0..5 {
                let i = (self.random() % self.map.len() as u64) as usize;
                let item = &self.map[i];
                if item.resident && item.last_lsn() <= written_lsn && best.is_none_or(|(_, a)| item.access < a) {
                    best = Some((i, item.access));
                }
            }
            let Some((i, _)) = best else {
                misses += 1;
                continue;
            };
            let item = &mut self.map[i];
            item.entry.value = placeholder();
            item.resident = false;
            c.used_memory.fetch_sub(item.mem, Relaxed);
            c.evicted_values.fetch_add(1, Relaxed);
            freed += item.mem;
            over = over.saturating_sub(item.mem);
            item.mem = 0;
        }
        freed
    }
}
