//! One shard: the key map, the expiry index, memory accounting and eviction.
//!
//! The map is an `IndexMap` so that SCAN can walk it by position and eviction and RANDOMKEY
//! can sample it at random in O(1).

use crate::key::{Key, KeyHasher};
use crate::stats::Counters;
use crate::value::{Entry, Kind, Value};
use crate::wal::Loc;
use bytes::Bytes;
use indexmap::IndexMap;
use std::collections::BTreeSet;
use std::sync::atomic::Ordering::Relaxed;
use thin_vec::ThinVec;

/// Memory charged per key on top of its bytes (map slot, metadata).
pub(crate) const KEY_OVERHEAD: u64 = 160;
/// Memory charged per delta op an item depends on (its place in the log), resident or not.
pub(crate) const CHAIN_ENTRY: u64 = std::mem::size_of::<Loc>() as u64;

pub(crate) struct Item {
    /// The entry; its value is a placeholder while the item is not resident.
    pub entry: Entry,
    /// Its place in the shard's `resident` list while its value is in memory, else `COLD`.
    res_pos: u32,
    pub kind: Kind,
    pub loc: Loc,
    /// The delta ops logged after `loc`, in log order: the value is the one at `loc` with
    /// each of them applied (see `delta.rs`). Emptied by every whole put. A `ThinVec` (one
    /// pointer, nothing allocated while empty): most items never have a chain.
    pub chain: ThinVec<Loc>,
    /// Bytes charged for the value while resident.
    pub mem: u64,
    /// Coarse last-access time (unix ms / 64) for eviction.
    pub access: u32,
}

/// Cache-line aligned: each shard's mutex and fields sit on lines of their own, so two cores
/// working in neighbouring shards do not pass a line between them.
#[repr(align(64))]
pub(crate) struct Shard {
    pub map: IndexMap<Key, Item, KeyHasher>,
    /// (expires_at_ms, key) of every key with an expiry.
    pub expires: BTreeSet<(u64, Key)>,
    /// Map positions of the items whose value is in memory, in no order: eviction samples
    /// these. Sampling the map found none when most values were on disk (data larger than
    /// memory), and cold reads then spent most of their time in eviction.
    resident: Vec<u32>,
    rng: u64,
    /// What reads found in this shard (INFO's keyspace_hits/misses, cache hits/misses).
    pub reads: ReadCounts,
}

/// Counted per shard, under its lock, not in the shared `Counters`: every read bumped two of
/// those atomics, and with a worker on each core their cache line went back and forth between
/// the cores (pipelined GETs spent more CPU per request than Redis on fewer instructions).
#[derive(Default, Clone, Copy)]
pub(crate) struct ReadCounts {
    pub keyspace_hits: u64,
    pub keyspace_misses: u64,
    pub cache_hits: u64,
    pub cache_misses: u64,
}

impl ReadCounts {
    pub fn add(&mut self, other: &ReadCounts) {
        self.keyspace_hits += other.keyspace_hits;
        self.keyspace_misses += other.keyspace_misses;
        self.cache_hits += other.cache_hits;
        self.cache_misses += other.cache_misses;
    }
}

/// `Item::res_pos` of an item whose value is on disk.
const COLD: u32 = u32::MAX;

impl Item {
    /// LSN of the last logged change to the value: its put or its last delta op.
    pub fn changed_lsn(&self) -> u64 {
        self.chain.last().map_or(self.loc.lsn, |d| d.lsn.max(self.loc.lsn))
    }

    /// Whether the value is in memory.
    pub fn resident(&self) -> bool {
        self.res_pos != COLD
    }

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
pub(crate) fn drop_chain(c: &Counters, chain: &mut ThinVec<Loc>) {
    if chain.is_empty() {
        return;
    }
    let live: i64 = chain.iter().map(|d| d.op_len as i64).sum();
    c.live_bytes.fetch_sub(live, Relaxed);
    c.used_memory.fetch_sub(CHAIN_ENTRY * chain.len() as u64, Relaxed);
    *chain = ThinVec::new();
}

pub(crate) fn placeholder() -> Value {
    Value::Str(Bytes::new())
}

pub(crate) fn access_clock(now_ms: u64) -> u32 {
    (now_ms >> 6) as u32
}

impl Shard {
    pub fn new(seed: u64) -> Shard {
        Shard { map: IndexMap::default(), expires: BTreeSet::new(), resident: Vec::new(), rng: seed | 1, reads: ReadCounts::default() }
    }

    /// Records that the item at map position `i` now holds its value in memory.
    fn mark_resident(&mut self, c: &Counters, i: usize) {
        self.map[i].res_pos = self.resident.len() as u32;
        self.resident.push(i as u32);
        c.resident_values.fetch_add(1, Relaxed);
    }

    /// Records that the item at map position `i` no longer holds its value in memory.
    fn mark_cold(&mut self, c: &Counters, i: usize) {
        let p = std::mem::replace(&mut self.map[i].res_pos, COLD);
        self.unlist(c, p);
    }

    /// Takes slot `p` out of the resident list, fixing the item whose slot moved into it.
    fn unlist(&mut self, c: &Counters, p: u32) {
        c.resident_values.fetch_sub(1, Relaxed);
        self.resident.swap_remove(p as usize);
        if let Some(&j) = self.resident.get(p as usize) {
            self.map[j as usize].res_pos = p;
        }
    }

    /// Keeps the resident list right after the map removed the item at position `i` (the
    /// map's last item moved into `i`); `removed` is the removed item.
    fn after_swap_remove(&mut self, c: &Counters, i: usize, removed: &Item) {
        if let Some(moved) = self.map.get_index(i).map(|(_, item)| item.res_pos) {
            if moved != COLD {
                self.resident[moved as usize] = i as u32;
            }
        }
        if removed.res_pos != COLD {
            self.unlist(c, removed.res_pos);
        }
    }

    /// Puts back in memory the value of the item at position `i`, read from the log.
    pub fn load_back(&mut self, c: &Counters, i: usize, value: Value) {
        let item = &mut self.map[i];
        item.mem = value.mem_size() as u64;
        item.entry.value = value;
        c.used_memory.fetch_add(item.mem, Relaxed);
        self.mark_resident(c, i);
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
            Some((i, k, item)) => {
                let was_resident = item.resident();
                if was_resident {
                    c.used_memory.fetch_sub(item.mem, Relaxed);
                }
                c.live_bytes.fetch_sub(item.loc.op_len as i64, Relaxed);
                drop_chain(c, &mut item.chain);
                let old_exp = item.entry.expires_at_ms;
                let res_pos = item.res_pos;
                *item = Item { entry, res_pos, kind, loc, chain: ThinVec::new(), mem, access: access_clock(now_ms) };
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
                if !was_resident {
                    self.mark_resident(c, i);
                }
            }
            None => {
                let k = Key::new(key);
                c.used_memory.fetch_add(key.len() as u64 + KEY_OVERHEAD, Relaxed);
                c.keys.fetch_add(1, Relaxed);
                if let Some(t) = new_exp {
                    self.expires.insert((t, k.clone()));
                    c.expires.fetch_add(1, Relaxed);
                }
                self.map.insert(k, Item { entry, res_pos: COLD, kind, loc, chain: ThinVec::new(), mem, access: access_clock(now_ms) });
                self.mark_resident(c, self.map.len() - 1);
            }
        }
    }

    /// Inserts a key whose value stays on disk (recovery beyond `maxmemory`).
    pub fn insert_cold(&mut self, c: &Counters, key: &[u8], head: (Kind, u32), expires_at_ms: Option<u64>, loc: Loc) {
        let (kind, flags) = head;
        self.remove(c, key);
        let k = Key::new(key);
        c.live_bytes.fetch_add(loc.op_len as i64, Relaxed);
        c.used_memory.fetch_add(key.len() as u64 + KEY_OVERHEAD, Relaxed);
        c.keys.fetch_add(1, Relaxed);
        if let Some(t) = expires_at_ms {
            self.expires.insert((t, k.clone()));
            c.expires.fetch_add(1, Relaxed);
        }
        let entry = Entry { value: placeholder(), expires_at_ms, flags };
        self.map.insert(k, Item { entry, res_pos: COLD, kind, loc, chain: ThinVec::new(), mem: 0, access: 0 });
    }

    /// Removes `key`; returns whether it was there.
    pub fn remove(&mut self, c: &Counters, key: &[u8]) -> bool {
        match self.map.swap_remove_full(key) {
            Some((i, k, item)) => {
                self.after_swap_remove(c, i, &item);
                self.forget(c, k, item);
                true
            }
            None => false,
        }
    }

    pub fn remove_index(&mut self, c: &Counters, i: usize) {
        if let Some((k, item)) = self.map.swap_remove_index(i) {
            self.after_swap_remove(c, i, &item);
            self.forget(c, k, item);
        }
    }

    /// Puts back the value of an existing `key` changed by delta ops logged at `loc`
    /// (`mem` is the change of its size, `grew` of its whole encoding): the item depends on
    /// one more op. The op counts as live for no more than `grew` of its bytes: compaction
    /// folds the chain into one whole put, so the log bytes a chain keeps are at most what
    /// it added to the value (a delta's record framing, an overwritten field and a popped
    /// element are dead once folded). The fold rule in `Db::commit` bounds the chain.
    pub fn add_delta(&mut self, c: &Counters, key: &[u8], value: crate::value::Value, loc: Loc, (mem, grew): (i64, u64), now_ms: u64) {
        let Some(item) = self.map.get_mut(key) else { return };
        let loc = Loc { op_len: loc.op_len.min(grew.min(u32::MAX as u64) as u32), ..loc };
        item.entry.value = value;
        item.access = access_clock(now_ms);
        if item.resident() {
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

    fn forget(&mut self, c: &Counters, k: Key, mut item: Item) {
        drop_chain(c, &mut item.chain);
        if item.resident() {
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
        c.resident_values.fetch_sub(self.resident.len() as u64, Relaxed);
        self.resident.clear();
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

    /// Evicts values (not keys) of written-out entries: this shard's share of `excess` bytes
    /// over the bound, in proportion to its part of the `resident` values of every shard (at
    /// least one value while it holds any), or until no candidate is found; approximates LRU
    /// by taking the oldest of 5 random samples of the resident values.
    pub fn evict(&mut self, c: &Counters, excess: u64, resident: u64, written_lsn: u64) -> u64 {
        if self.resident.is_empty() {
            return 0;
        }
        let share = excess as u128 * self.resident.len() as u128 / resident.max(1) as u128;
        let mut over = (share as u64).clamp(1, excess);
        let mut freed = 0;
        let mut misses = 0;
        while over > 0 && !self.resident.is_empty() && misses < 8 {
            let mut best: Option<(usize, u32)> = None;
            for _ in 0..5 {
                let r = (self.random() % self.resident.len() as u64) as usize;
                let i = self.resident[r] as usize;
                let item = &self.map[i];
                if item.last_lsn() <= written_lsn && best.is_none_or(|(_, a)| item.access < a) {
                    best = Some((i, item.access));
                }
            }
            let Some((i, _)) = best else {
                misses += 1;
                continue;
            };
            self.mark_cold(c, i);
            let item = &mut self.map[i];
            item.entry.value = placeholder();
            c.used_memory.fetch_sub(item.mem, Relaxed);
            c.evicted_values.fetch_add(1, Relaxed);
            freed += item.mem;
            over = over.saturating_sub(item.mem);
            item.mem = 0;
        }
        freed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every resident item is listed once at its own slot, and the counter agrees.
    fn check(s: &Shard, c: &Counters) {
        let listed = s.map.values().filter(|item| item.resident()).count();
        assert_eq!(listed, s.resident.len());
        for (p, &i) in s.resident.iter().enumerate() {
            assert_eq!(s.map[i as usize].res_pos, p as u32, "slot {p} names position {i}");
        }
        assert_eq!(c.resident_values.load(Relaxed), s.resident.len() as u64);
    }

    #[test]
    fn the_resident_list_follows_inserts_removals_loads_and_evictions() {
        let c = Counters::default();
        let mut s = Shard::new(7);
        let loc = Loc { seg: 1, off: 0, len: 1, op_len: 10, lsn: 1 };
        let value = || Entry::new(Value::Str(Bytes::from_static(b"v")));
        for step in 0..20_000u64 {
            let key = format!("k{}", s.random() % 300);
            match s.random() % 6 {
                0 | 1 => s.upsert(&c, key.as_bytes(), value(), loc, step),
                2 => {
                    s.remove(&c, key.as_bytes());
                }
                3 => s.insert_cold(&c, key.as_bytes(), (Kind::Str, 0), None, loc),
                4 => {
                    if let Some(i) = s.map.get_index_of(key.as_bytes()) {
                        if !s.map[i].resident() {
                            s.load_back(&c, i, Value::Str(Bytes::from_static(b"v")));
                        }
                    }
                }
                _ => {
                    let over = 1 + s.random() % 200;
                    s.evict(&c, over, s.resident.len() as u64, 1);
                }
            }
            if step % 5_000 == 4_999 {
                s.clear(&c);
            }
            check(&s, &c);
        }
    }
}
