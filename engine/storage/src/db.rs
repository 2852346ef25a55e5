//! [`Db`]: the handle the server holds. See the crate docs for the design.

use crate::codec::{decode_value, RecordBuf};
use crate::error::StorageError;
use crate::options::{Fsync, Options};
use crate::shard::{access_clock, placeholder, Shard};
use crate::slot::{Slot, Txn};
use crate::stats::{Counters, Stats};
use crate::value::{Entry, Kind};
use crate::wal::{lock, Loc, Wal};
use crate::{now_ms, recovery, worker};
use bytes::Bytes;
use std::collections::HashMap;
use std::fs::File;
use std::future::Future;
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
use std::os::unix::fs::FileExt;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering::*};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Wake, Waker};
use std::thread::JoinHandle;

/// Log sequence number of a write. 0 means "nothing was written".
pub type Lsn = u64;

/// A handle to an open store; cheap to clone, shared by all connections. The store closes
/// (final fsync, background threads stopped) when the last clone is dropped.
#[derive(Clone)]
pub struct Db {
    inner: Arc<Inner>,
    _closer: Arc<Closer>,
}

pub(crate) struct Inner {
    pub opts: Options,
    pub shards: Box<[Mutex<Shard>]>,
    pub wal: Arc<Wal>,
    pub counters: Counters,
    pub maxmemory: AtomicU64,
    /// Held (flock) for the life of the store so no second process opens the directory.
    _dir_lock: File,
}

struct Closer {
    inner: Arc<Inner>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl Drop for Closer {
    fn drop(&mut self) {
        self.inner.wal.shutdown.store(true, Release);
        self.inner.wal.set_mode(self.inner.wal.mode()); // wakes the log thread
        for t in lock(&self.threads).drain(..) {
            let _ = t.join();
        }
    }
}

/// One page of [`Db::scan`].
#[derive(Debug, Clone, Default)]
pub struct ScanPage {
    /// The cursor for the next call; 0 when the scan is complete.
    pub cursor: u64,
    pub keys: Vec<(Bytes, Kind)>,
}

const CURSOR_SHIFT: u32 = 40;
const CURSOR_TOP: u64 = (1 << CURSOR_SHIFT) - 1;

pub(crate) fn shard_of(key: &[u8], n: usize) -> usize {
    (BuildHasherDefault::<DefaultHasher>::default().hash_one(key) % n as u64) as usize
}

impl Inner {
    pub(crate) fn shard_index(&self, key: &[u8]) -> usize {
        shard_of(key, self.shards.len())
    }

    pub(crate) fn shard(&self, i: usize) -> MutexGuard<'_, Shard> {
        lock(&self.shards[i])
    }

    /// Reads a value (and the flags stored with it) back from the log.
    fn load(&self, key: &[u8], loc: &Loc) -> Result<(crate::value::Value, u32), StorageError> {
        if self.wal.written() < loc.lsn {
            self.wal.write_out()?;
        }
        let file = self.wal.files.read().unwrap_or_else(|e| e.into_inner()).get(&loc.seg).cloned();
        let path = crate::wal::segment_path(self.wal.dir(), loc.seg);
        let file = file.ok_or_else(|| StorageError::Corrupt {
            path: path.clone(),
            offset: loc.off,
            reason: "segment of a live value is missing".into(),
        })?;
        let mut buf = vec![0u8; loc.len as usize];
        file.read_exact_at(&mut buf, loc.off)
            .map_err(|e| StorageError::io(format!("read value from {}", path.display()), e))?;
        if let Some(c) = self.opts.cipher.as_deref() {
            crate::at_rest::open_in_vec(c, key, &mut buf).map_err(|reason| StorageError::Corrupt {
                path: path.clone(),
                offset: loc.off,
                reason,
            })?;
        }
        decode_value(&Bytes::from(buf)).map_err(|reason| StorageError::Corrupt {
            path,
            offset: loc.off,
            reason: reason.into(),
        })
    }

    /// Finds `key`, dropping it if expired and loading its value if cold. Returns its index.
    fn find(&self, shard: &mut Shard, key: &[u8], now: u64) -> Result<Option<usize>, StorageError> {
        let c = &self.counters;
        let Some(i) = shard.map.get_index_of(key) else {
            c.keyspace_misses.fetch_add(1, Relaxed);
            return Ok(None);
        };
        if shard.map[i].entry.is_expired(now) {
            shard.remove_index(c, i);
            c.expired_keys.fetch_add(1, Relaxed);
            c.keyspace_misses.fetch_add(1, Relaxed);
            return Ok(None);
        }
        c.keyspace_hits.fetch_add(1, Relaxed);
        let item = &mut shard.map[i];
        item.access = access_clock(now);
        if item.resident {
            c.cache_hits.fetch_add(1, Relaxed);
        } else {
            // The flags stayed in the item while the value was on disk.
            let (value, _flags) = self.load(key, &item.loc)?;
            item.mem = value.mem_size() as u64;
            item.entry.value = value;
            item.resident = true;
            c.used_memory.fetch_add(item.mem, Relaxed);
            c.cache_misses.fetch_add(1, Relaxed);
        }
        Ok(Some(i))
    }

    /// Moves the entry of `key` out of the shard (its item keeps a placeholder).
    fn take(&self, shard: &mut Shard, key: &[u8], now: u64) -> Result<Option<Entry>, StorageError> {
        Ok(self.find(shard, key, now)?.map(|i| {
            let e = &mut shard.map[i].entry;
            Entry {
                value: std::mem::replace(&mut e.value, placeholder()),
                expires_at_ms: e.expires_at_ms,
                flags: e.flags,
            }
        }))
    }

    fn put_back(shard: &mut Shard, key: &[u8], entry: Option<Entry>) {
        if let (Some(e), Some(item)) = (entry, shard.map.get_mut(key)) {
            item.entry.value = e.value;
        }
    }

    /// Frees memory until `used_memory <= maxmemory`, starting with shard `first`.
    fn maybe_evict(&self, first: usize) {
        let max = self.maxmemory.load(Relaxed);
        if max == 0 || self.counters.used_memory.load(Relaxed) <= max {
            return;
        }
        for attempt in 0..2 {
            let written = self.wal.written();
            let n = self.shards.len();
            for k in 0..n {
                let used = self.counters.used_memory.load(Relaxed);
                if used <= max {
                    return;
                }
                let idx = (first + k) % n;
                let mut guard = if k == 0 {
                    self.shard(idx)
                } else {
                    match self.shards[idx].try_lock() {
                        Ok(g) => g,
                        Err(_) => continue,
                    }
                };
                guard.evict(&self.counters, used - max, written);
            }
            // Values still in the append buffer cannot be dropped yet: write it out, retry.
            if attempt == 0 && self.wal.written() < self.wal.appended() && self.wal.write_out().is_err() {
                return;
            }
        }
    }
}

/// A change to one key, gathered before logging.
struct Change<'k> {
    shard: usize,
    key: &'k [u8],
    entry: Option<Entry>,
    existed: bool,
    dirty: bool,
}

impl Db {
    /// Opens (or creates) the store in `opts.dir`, replaying its log.
    pub fn open(opts: Options) -> Result<Db, StorageError> {
        if opts.shards == 0 || opts.shards > 1 << 20 {
            return Err(StorageError::InvalidOptions("shards must be between 1 and 1048576".into()));
        }
        if opts.segment_bytes < 4096 {
            return Err(StorageError::InvalidOptions("segment_bytes must be at least 4096".into()));
        }
        std::fs::create_dir_all(&opts.dir)
            .map_err(|e| StorageError::io(format!("create {}", opts.dir.display()), e))?;
        let lock_path = opts.dir.join("LOCK");
        let dir_lock = File::create(&lock_path)
            .map_err(|e| StorageError::io(format!("create {}", lock_path.display()), e))?;
        if dir_lock.try_lock().is_err() {
            return Err(StorageError::Locked { dir: opts.dir.clone() });
        }
        let shards: Box<[Mutex<Shard>]> = (0..opts.shards)
            .map(|i| Mutex::new(Shard::new(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1))))
            .collect();
        let counters = Counters::default();
        let rec = recovery::replay(&opts, &shards, &counters)?;
        let wal = Arc::new(Wal::new(
            opts.dir.clone(),
            opts.segment_bytes,
            opts.fsync,
            rec.files,
            rec.seg,
            rec.seg_len,
            rec.lsn,
            rec.log_bytes,
        ));
        let inner = Arc::new(Inner {
            maxmemory: AtomicU64::new(opts.maxmemory),
            opts,
            shards,
            wal,
            counters,
            _dir_lock: dir_lock,
        });
        // Replay charged keys after values were placed; trim back under the bound.
        inner.maybe_evict(0);
        let threads = worker::spawn(&inner)?;
        let closer = Arc::new(Closer { inner: inner.clone(), threads: Mutex::new(threads) });
        Ok(Db { inner, _closer: closer })
    }

    /// Calls `f` with the live entry of `key` (None if missing or expired). Loads a cold value
    /// from disk first.
    pub fn read<R>(&self, key: &[u8], f: impl FnOnce(Option<&Entry>) -> R) -> Result<R, StorageError> {
        let inner = &self.inner;
        let si = inner.shard_index(key);
        let now = now_ms();
        let mut shard = inner.shard(si);
        let missed = inner.counters.cache_misses.load(Relaxed);
        let r = match inner.find(&mut shard, key, now)? {
            Some(i) => f(Some(&shard.map[i].entry)),
            None => f(None),
        };
        drop(shard);
        if inner.counters.cache_misses.load(Relaxed) != missed {
            inner.maybe_evict(si);
        }
        Ok(r)
    }

    /// The type of `key` without loading its value (None if missing or expired).
    pub fn kind(&self, key: &[u8]) -> Option<Kind> {
        let mut shard = self.inner.shard(self.inner.shard_index(key));
        let now = now_ms();
        let i = shard.map.get_index_of(key)?;
        if shard.map[i].entry.is_expired(now) {
            shard.remove_index(&self.inner.counters, i);
            return None;
        }
        Some(shard.map[i].kind)
    }

    /// Atomically reads and changes one key. The closure sees the live entry and changes it
    /// through the [`Slot`]; if it changed anything, one record is logged and its LSN returned
    /// (else 0). Refused with `Poisoned` once the log has failed.
    pub fn update<R>(&self, key: &[u8], f: impl FnOnce(&mut Slot<'_>) -> R) -> Result<(R, Lsn), StorageError> {
        let inner = &self.inner;
        inner.wal.check_writable()?;
        let si = inner.shard_index(key);
        let now = now_ms();
        let mut shard = inner.shard(si);
        let mut entry = inner.take(&mut shard, key, now)?;
        let existed = entry.is_some();
        let mut slot = Slot { key, entry: &mut entry, dirty: false, now_ms: now };
        let r = f(&mut slot);
        let dirty = slot.dirty;
        let change = Change { shard: 0, key, entry, existed, dirty };
        let lsn = self.commit(&mut [shard], &mut [change], now);
        inner.maybe_evict(si);
        Ok((r, lsn))
    }

    /// Atomically reads and changes several keys (MSET, RENAME, DEL k1 k2 ...): their shards
    /// are locked together and all changes go into one log record.
    pub fn batch<R>(&self, keys: &[&[u8]], f: impl FnOnce(&mut Txn) -> R) -> Result<(R, Lsn), StorageError> {
        let inner = &self.inner;
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
        let mut shard_ids: Vec<usize> = uniq.iter().map(|k| inner.shard_index(k)).collect();
        let key_shards = shard_ids.clone();
        shard_ids.sort_unstable();
        shard_ids.dedup();
        // Locked in ascending order, so two batches never deadlock.
        let mut guards: Vec<MutexGuard<'_, Shard>> = shard_ids.iter().map(|&i| inner.shard(i)).collect();
        let mut entries = Vec::with_capacity(uniq.len());
        for (k, &si) in uniq.iter().zip(&key_shards) {
            let g = shard_ids.binary_search(&si).unwrap();
            match inner.take(&mut guards[g], k, now) {
                Ok(e) => entries.push(e),
                Err(err) => {
                    for (k2, e) in uniq.iter().zip(entries) {
                        let g2 = shard_ids.binary_search(&inner.shard_index(k2)).unwrap();
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
            changes.push(Change { shard: g, key: uniq[i], entry, existed: txn.existed[i], dirty: txn.dirty[i] });
        }
        let lsn = self.commit(&mut guards, &mut changes, now);
        drop(guards);
        if let Some(&first) = shard_ids.first() {
            inner.maybe_evict(first);
        }
        Ok((r, lsn))
    }

    /// Logs the dirty changes as one record and applies them; puts clean entries back.
    /// `Change::shard` indexes `guards`.
    fn commit(&self, guards: &mut [MutexGuard<'_, Shard>], changes: &mut [Change<'_>], now: u64) -> Lsn {
        let inner = &self.inner;
        let estimate: usize = changes
            .iter()
            .filter(|ch| ch.dirty)
            .map(|ch| {
                let value = match ch.entry.as_ref().map(|e| &e.value) {
                    Some(crate::value::Value::Str(b)) => b.len(),
                    Some(_) => 256,
                    None => 0,
                };
                ch.key.len() + value + 32
            })
            .sum();
        let cipher = inner.opts.cipher.as_deref();
        let mut rec = RecordBuf::with_capacity(estimate + if cipher.is_some() { 64 * changes.len() } else { 0 });
        for ch in changes.iter_mut() {
            if !ch.dirty {
                continue;
            }
            if ch.entry.as_ref().is_some_and(|e| e.value.is_empty_collection()) {
                ch.entry = None;
            }
            match &ch.entry {
                Some(e) => rec.put(cipher, ch.key, e.expires_at_ms, &e.value, e.flags),
                None if ch.existed => rec.del(cipher, ch.key),
                None => {}
            }
        }
        let (lsn, seg, off) = if rec.is_empty() {
            (0, 0, 0)
        } else {
            rec.finish();
            inner.wal.append(&rec)
        };
        let mut puts = rec.puts.iter();
        for ch in changes.iter_mut() {
            let shard = &mut *guards[ch.shard];
            let entry = ch.entry.take();
            if !ch.dirty {
                Inner::put_back(shard, ch.key, entry);
                continue;
            }
            match entry {
                Some(e) => {
                    let &(value_at, len, op_len) = puts.next().expect("one put per live change");
                    let loc = Loc {
                        seg,
                        off: off + value_at as u64,
                        len: len as u32,
                        op_len: op_len as u32,
                        lsn,
                    };
                    shard.upsert(&inner.counters, ch.key, e, loc, now);
                }
                None => {
                    shard.remove(&inner.counters, ch.key);
                }
            }
        }
        lsn
    }

    /// Deletes every key (FLUSHALL / FLUSHDB), as one log record.
    pub fn flush_all(&self) -> Result<Lsn, StorageError> {
        let inner = &self.inner;
        inner.wal.check_writable()?;
        let mut guards: Vec<_> = (0..inner.shards.len()).map(|i| inner.shard(i)).collect();
        let mut rec = RecordBuf::new();
        rec.flush_all();
        rec.finish();
        let (lsn, _, _) = inner.wal.append(&rec);
        for g in guards.iter_mut() {
            g.clear(&inner.counters);
        }
        Ok(lsn)
    }

    /// One page of keys for SCAN/KEYS, at least `count` keys unless the scan ends. Start with
    /// cursor 0; the page's cursor is 0 when done. Every key present for the whole scan is
    /// returned at least once (keys are walked from the end of each shard's map, so a removal
    /// only moves an already-visited key).
    pub fn scan(&self, cursor: u64, count: usize) -> ScanPage {
        let inner = &self.inner;
        let n = inner.shards.len() as u64;
        let count = count.max(1);
        let (mut s, mut pos) = if cursor == 0 { (0, CURSOR_TOP) } else { (cursor >> CURSOR_SHIFT, cursor & CURSOR_TOP) };
        let now = now_ms();
        let mut keys = Vec::new();
        while s < n && keys.len() < count {
            let shard = inner.shard(s as usize);
            let mut i = (pos as usize).min(shard.map.len());
            while i > 0 && keys.len() < count {
                i -= 1;
                let (k, item) = shard.map.get_index(i).unwrap();
                if !item.entry.is_expired(now) {
                    keys.push((k.clone(), item.kind));
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
        self.inner.counters.keys.load(Relaxed)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A random live key, or None if the store is (nearly) empty.
    pub fn random_key(&self) -> Option<Bytes> {
        let inner = &self.inner;
        let n = inner.shards.len();
        let now = now_ms();
        let start = (inner.shard(0).random() % n as u64) as usize;
        for k in 0..n.max(64) {
            let mut shard = inner.shard((start + k) % n);
            if shard.map.is_empty() {
                continue;
            }
            let i = (shard.random() % shard.map.len() as u64) as usize;
            let (key, item) = shard.map.get_index(i).unwrap();
            if !item.entry.is_expired(now) {
                return Some(key.clone());
            }
        }
        None
    }

    /// LSN of the last record appended (what a connection waits for after a pipeline that
    /// may have read data other connections wrote).
    pub fn last_lsn(&self) -> Lsn {
        self.inner.wal.appended()
    }

    /// Resolves once `lsn` may be acknowledged: fsynced under `Fsync::Always`, written to the
    /// log file otherwise (the waiting task then writes the buffer itself). Errors once the
    /// log is poisoned, for any LSN not already durable.
    pub fn wait_durable(&self, lsn: Lsn) -> Durable {
        Durable { wal: self.inner.wal.clone(), lsn: lsn.min(self.inner.wal.appended()), yielded: false }
    }

    /// `wait_durable` for threads outside an async runtime.
    pub fn wait_durable_blocking(&self, lsn: Lsn) -> Result<(), StorageError> {
        block_on(self.wait_durable(lsn))
    }

    /// Writes and fsyncs everything appended so far, whatever the fsync mode (SHUTDOWN, SAVE).
    pub fn sync(&self) -> Result<(), StorageError> {
        self.inner.wal.sync()
    }

    pub fn fsync_mode(&self) -> Fsync {
        self.inner.wal.mode()
    }

    /// Changes the fsync mode at run time (CONFIG SET appendfsync).
    pub fn set_fsync_mode(&self, mode: Fsync) {
        self.inner.wal.set_mode(mode)
    }

    pub fn maxmemory(&self) -> u64 {
        self.inner.maxmemory.load(Relaxed)
    }

    /// Changes `maxmemory` at run time (CONFIG SET maxmemory); 0 means no limit.
    pub fn set_maxmemory(&self, bytes: u64) {
        self.inner.maxmemory.store(bytes, Relaxed);
        self.inner.maybe_evict(0);
    }

    pub fn options(&self) -> &Options {
        &self.inner.opts
    }

    pub fn stats(&self) -> Stats {
        let c = &self.inner.counters;
        let wal = &self.inner.wal;
        let fsyncs = wal.stats.fsyncs.load(Relaxed);
        Stats {
            keys: c.keys.load(Relaxed),
            expires: c.expires.load(Relaxed),
            used_memory: c.used_memory.load(Relaxed),
            maxmemory: self.maxmemory(),
            keyspace_hits: c.keyspace_hits.load(Relaxed),
            keyspace_misses: c.keyspace_misses.load(Relaxed),
            cache_hits: c.cache_hits.load(Relaxed),
            cache_misses: c.cache_misses.load(Relaxed),
            evicted_values: c.evicted_values.load(Relaxed),
            expired_keys: c.expired_keys.load(Relaxed),
            fsync: wal.mode().name(),
            log_bytes: wal.stats.log_bytes.load(Relaxed),
            live_log_bytes: c.live_bytes.load(Relaxed).max(0) as u64,
            log_segments: wal.files.read().unwrap_or_else(|e| e.into_inner()).len() as u64,
            log_writes: wal.stats.writes.load(Relaxed),
            compactions: c.compactions.load(Relaxed),
            appended_lsn: wal.appended(),
            written_lsn: wal.written(),
            durable_lsn: wal.durable(),
            fsyncs,
            fsync_avg_us: wal.stats.fsync_ns_total.load(Relaxed) / fsyncs.max(1) / 1000,
            fsync_last_us: wal.stats.fsync_ns_last.load(Relaxed) / 1000,
            fsync_max_us: wal.stats.fsync_ns_max.load(Relaxed) / 1000,
            last_fsync_unix_ms: wal.stats.last_fsync_unix_ms.load(Relaxed),
            last_fsync_error: wal.last_error(),
            poisoned: wal.is_poisoned(),
        }
    }

    /// Makes the next fsync fail, to test poisoning. Not for production use.
    #[doc(hidden)]
    pub fn inject_fsync_failure(&self) {
        self.inner.wal.inject_fsync_failure()
    }
}

/// The future of [`Db::wait_durable`].
pub struct Durable {
    wal: Arc<Wal>,
    lsn: Lsn,
    /// Under `everysec`/`no`: whether this wait already let other ready tasks run once, so
    /// that the connections served in the same scheduler pass share one `write(2)`.
    yielded: bool,
}

impl Future for Durable {
    type Output = Result<(), StorageError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let wal = &this.wal;
        let lsn = this.lsn;
        if wal.durable() >= lsn {
            return Poll::Ready(Ok(()));
        }
        if wal.is_poisoned() {
            return Poll::Ready(Err(wal.poison_error()));
        }
        if wal.mode() != Fsync::Always {
            if wal.written() >= lsn {
                return Poll::Ready(Ok(()));
            }
            if !this.yielded {
                this.yielded = true;
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            if wal.is_fsyncing() {
                // Registered first, then checked again: the log thread clears the flag before
                // it writes out and wakes the waiters, so no wake-up is lost.
                wal.register_waiter(lsn, cx.waker());
                if wal.is_fsyncing() {
                    return Poll::Pending;
                }
                if wal.written() >= lsn {
                    return Poll::Ready(Ok(()));
                }
            }
            return Poll::Ready(wal.write_out());
        }
        wal.register_waiter(lsn, cx.waker());
        if wal.is_done(lsn) {
            return Poll::Ready(Ok(()));
        }
        if wal.is_poisoned() {
            return Poll::Ready(Err(wal.poison_error()));
        }
        Poll::Pending
    }
}

struct ThreadWaker(std::thread::Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}

fn block_on<F: Future>(fut: F) -> F::Output {
    let mut fut = std::pin::pin!(fut);
    let waker = Waker::from(Arc::new(ThreadWaker(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::park();
    }
}
