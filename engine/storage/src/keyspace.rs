//! [`Keyspace`]: one logical database of a [`Db`] (Redis' SELECT). Each database has its own
//! shards; a change names its database in the log record (see the crate docs).

use crate::db::{Change, Db, Inner, ScanPage, CURSOR_SHIFT, CURSOR_TOP};
use crate::key::shard_of;
use crate::error::StorageError;
use crate::codec::RecordBuf;
use crate::capture::PENDING_LSN;
use crate::shard::Shard;
use crate::slot::{Slot, Txn};
use crate::value::{Entry, Kind};
use crate::{now_ms, Lsn};
use crate::delta::Encoded;
use bytes::Bytes;
use std::collections::HashMap;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::MutexGuard;

/// Database `index` of a store; cheap to make (`Db::keyspace`).
#[derive(Clone, Copy)]
pub struct Keyspace<'a> {
    pub(crate) db: &'a Db,
    pub(crate) index: usize,
}

impl<'a> Keyspace<'a> {
    pub fn index(&self) -> usize {
        self.index
    }

    fn inner(&self) -> &'a Inner {
        self.db.inner()
    }

    /// Calls `f` with the live entry of `key` (None if missing or expired). Loads a cold value
    /// from disk first. Notes what it saw for the reply to wait for (`seen.rs`).
    pub fn read<R>(&self, key: &[u8], f: impl FnOnce(Option<&Entry>) -> R) -> Result<R, StorageError> {
        let inner = self.inner();
        let si = inner.shard_index(self.index, key);
        let now = now_ms();
        let mut shard = inner.shard(si);
        let missed = shard.reads.cache_misses;
        let r = match inner.find(self.index, &mut shard, key, now)? {
            Some(i) => {
                let item = &shard.map[i];
                crate::seen::note(item.changed_lsn().max(inner.swapped_lsn.load(Relaxed)));
                f(Some(&item.entry))
            }
            None => {
                crate::seen::note(inner.wal.appended());
                f(None)
            }
        };
        let loaded = shard.reads.cache_misses != missed;
        drop(shard);
        if loaded {
            inner.maybe_evict();
        }
        Ok(r)
    }

    /// Calls `f` with the entry of `key` as it is in the map, even past its expiry, without
    /// removing it or counting an access (DEBUG OBJECT: Redis answers it from its dict).
    /// Loads a cold value from disk first.
    pub fn inspect<R>(&self, key: &[u8], f: impl FnOnce(Option<&Entry>) -> R) -> Result<R, StorageError> {
        let inner = self.inner();
        let mut shard = inner.shard(inner.shard_index(self.index, key));
        let Some(i) = shard.map.get_index_of(key) else { return Ok(f(None)) };
        if !shard.map[i].resident() {
            let item = &shard.map[i];
            let (value, _flags) = inner.load(key, &item.loc, &item.chain)?;
            shard.load_back(&inner.counters, i, value);
        }
        Ok(f(Some(&shard.map[i].entry)))
    }

    /// The type of `key` without loading its value (None if missing or expired).
    pub fn kind(&self, key: &[u8]) -> Option<Kind> {
        let inner = self.inner();
        let mut shard = inner.shard(inner.shard_index(self.index, key));
        let i = shard.map.get_index_of(key)?;
        if shard.map[i].entry.is_expired(now_ms()) {
            shard.remove_index(&inner.counters, i);
            inner.watches.touch(self.index, key);
            inner.report(self.index, key, crate::events::KeyEvent::Expired);
            return None;
        }
        Some(shard.map[i].kind)
    }

    /// Seconds since `key` was last read or written (OBJECT IDLETIME), without touching it;
    /// None if missing or expired. The clock is coarse (64 ms).
    pub fn idle_secs(&self, key: &[u8]) -> Option<u64> {
        let inner = self.inner();
        let shard = inner.shard(inner.shard_index(self.index, key));
        let item = shard.map.get(key)?;
        let now = now_ms();
        if item.entry.is_expired(now) {
            return None;
        }
        Some((crate::shard::access_clock(now).wrapping_sub(item.access) as u64) * 64 / 1000)
    }

    /// Whether `key` is in the map but past its expiry (not yet removed). EXEC asks this of
    /// WATCHed keys that were live when watched.
    pub fn is_stale(&self, key: &[u8]) -> bool {
        let inner = self.inner();
        let shard = inner.shard(inner.shard_index(self.index, key));
        shard.map.get(key).is_some_and(|item| item.entry.is_expired(now_ms()))
    }

    /// Atomically reads and changes one key. The closure sees the live entry and changes it
    /// through the [`Slot`]; if it changed anything, one record is logged and its LSN returned
    /// (else 0). Refused with `Poisoned` once the log has failed.
    pub fn update<R>(&self, key: &[u8], f: impl FnOnce(&mut Slot<'_>) -> R) -> Result<(R, Lsn), StorageError> {
        let inner = self.inner();
        inner.wal.check_writable()?;
        let si = inner.shard_index(self.index, key);
        let now = now_ms();
        let mut shard = inner.shard(si);
        let mut entry = inner.take(self.index, &mut shard, key, now)?;
        let existed = entry.is_some();
        let mut slot = Slot { key, entry: &mut entry, dirty: false, now_ms: now, deltas: Encoded::default(), mem: 0, grew: 0 };
        let r = f(&mut slot);
        let (dirty, deltas, mem, grew) = (slot.dirty, std::mem::take(&mut slot.deltas), slot.mem, slot.grew);
        let change = Change { shard: 0, db: self.index, global: si, key, entry, existed, dirty, deltas, mem, grew };
        let lsn = self.db.commit(&mut [shard], &mut [change], now);
        inner.maybe_evict();
        Ok((r, lsn))
    }

    /// Atomically reads and changes several keys (MSET, RENAME, DEL k1 k2 ...): their shards
    /// are locked together and all changes go into one log record.
    pub fn batch<R>(&self, keys: &[&[u8]], f: impl FnOnce(&mut Txn) -> R) -> Result<(R, Lsn), StorageError> {
        let inner = self.inner();
        inner.wal.check_writable()?;
        let now = now_ms();
        let mut index: HashMap<Bytes, usize> = HashMap::with_capacity(keys.len());
        let mut uniq: Vec<&[u8]> = Vec::with_capacity(keys.len());
        for k in keys {
            if !index.contains_key(*k) {
                index.insert(Bytes::copy_from_slice(k), uniq.len());
                uniq.push(k);
            }
        }
        let mut shard_ids: Vec<usize> = uniq.iter().map(|k| inner.shard_index(self.index, k)).collect();
        let key_shards = shard_ids.clone();
        shard_ids.sort_unstable();
        shard_ids.dedup();
        // Locked in ascending order, so two batches never deadlock.
        let mut guards: Vec<MutexGuard<'_, Shard>> = shard_ids.iter().map(|&i| inner.shard(i)).collect();
        let mut entries = Vec::with_capacity(uniq.len());
        for (k, &si) in uniq.iter().zip(&key_shards) {
            let g = shard_ids.binary_search(&si).unwrap();
            match inner.take(self.index, &mut guards[g], k, now) {
                Ok(e) => entries.push(e),
                Err(err) => {
                    for (k2, e) in uniq.iter().zip(entries) {
                        let g2 = shard_ids.binary_search(&inner.shard_index(self.index, k2)).unwrap();
                        Inner::put_back(&mut guards[g2], k2, e);
                    }
                    return Err(err);
                }
            }
        }
        let existed: Vec<bool> = entries.iter().map(Option::is_some).collect();
        let mut txn = Txn {
            keys: uniq.iter().map(|k| Bytes::copy_from_slice(k)).collect(),
            dirty: vec![false; uniq.len()],
            entries,
            existed,
            index,
            now_ms: now,
        };
        let r = f(&mut txn);
        let mut changes: Vec<Change<'_>> = Vec::with_capacity(uniq.len());
        for (i, entry) in txn.entries.into_iter().enumerate() {
            let g = shard_ids.binary_search(&key_shards[i]).unwrap();
            changes.push(Change {
                shard: g,
                db: self.index,
                global: key_shards[i],
                key: uniq[i],
                entry,
                existed: txn.existed[i],
                dirty: txn.dirty[i],
                deltas: Encoded::default(),
                mem: 0,
                grew: 0,
            });
        }
        let lsn = self.db.commit(&mut guards, &mut changes, now);
        drop(guards);
        inner.maybe_evict();
        Ok((r, lsn))
    }

    /// Deletes every key of this database (FLUSHDB), as one log record.
    pub fn flush(&self) -> Result<Lsn, StorageError> {
        let inner = self.inner();
        inner.wal.check_writable()?;
        let mut guards: Vec<_> = inner.db_shards(self.index).map(|i| inner.shard(i)).collect();
        let now = now_ms();
        inner.watches.touch_where(|db, key| {
            db == self.index
                && guards[shard_of(key, inner.per_db)].map.get(key).is_some_and(|item| !item.entry.is_expired(now))
        });
        let mut rec = RecordBuf::new();
        rec.flush_db(self.index);
        let (lsn, _, _) = self.db.append(&mut rec);
        for g in guards.iter_mut() {
            g.clear(&inner.counters);
        }
        Ok(if lsn == PENDING_LSN { 0 } else { lsn })
    }

    /// One page of keys for SCAN/KEYS, at least `count` keys unless the scan ends. Start with
    /// cursor 0; the page's cursor is 0 when done. Every key present for the whole scan is
    /// returned at least once (keys are walked from the end of each shard's map, so a removal
    /// only moves an already-visited key).
    pub fn scan(&self, cursor: u64, count: usize) -> ScanPage {
        let inner = self.inner();
        let base = self.index * inner.per_db;
        let n = inner.per_db as u64;
        let count = count.max(1);
        let (mut s, mut pos) = if cursor == 0 { (0, CURSOR_TOP) } else { (cursor >> CURSOR_SHIFT, cursor & CURSOR_TOP) };
        let now = now_ms();
        let mut keys = Vec::new();
        while s < n && keys.len() < count {
            let shard = inner.shard(base + s as usize);
            let mut i = (pos as usize).min(shard.map.len());
            while i > 0 && keys.len() < count {
                i -= 1;
                let (k, item) = shard.map.get_index(i).unwrap();
                if !item.entry.is_expired(now) {
                    keys.push((k.to_bytes(), item.kind));
                }
            }
            if i == 0 {
                s += 1;
                pos = CURSOR_TOP;
            } else {
                pos = i as u64;
            }
        }
        let cursor = if s >= n { 0 } else { (s << CURSOR_SHIFT) | pos };
        ScanPage { cursor, keys }
    }

    /// Number of keys (including expired keys not yet swept, as Redis' DBSIZE).
    pub fn len(&self) -> u64 {
        let inner = self.inner();
        inner.db_shards(self.index).map(|i| inner.shard(i).map.len() as u64).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keys with an expiry (INFO keyspace `expires=`).
    pub fn expires(&self) -> u64 {
        let inner = self.inner();
        inner.db_shards(self.index).map(|i| inner.shard(i).expires.len() as u64).sum()
    }

    /// A random live key, or None if the database is (nearly) empty.
    pub fn random_key(&self) -> Option<Bytes> {
        let inner = self.inner();
        let n = inner.per_db;
        let base = self.index * n;
        let now = now_ms();
        let start = (inner.shard(base).random() % n as u64) as usize;
        for k in 0..n.max(64) {
            let mut shard = inner.shard(base + (start + k) % n);
            if shard.map.is_empty() {
                continue;
            }
            let i = (shard.random() % shard.map.len() as u64) as usize;
            let (key, item) = shard.map.get_index(i).unwrap();
            if !item.entry.is_expired(now) {
                return Some(key.to_bytes());
            }
        }
        None
    }
}
