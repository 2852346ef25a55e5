//! The write-ahead log: segment files, the append buffer, group commit, durability waiters
//! and poisoning.
//!
//! Appends go to an in-memory buffer under a short mutex (a memcpy). `write_out` moves the
//! buffer to the files with one `write(2)` per segment touched; `sync` writes out and then
//! fsyncs every file written since the last sync, so every record appended before it started
//! becomes durable at once (group commit). LSNs are assigned in buffer order, so "written up
//! to" and "durable up to" are single numbers.

use crate::codec::{salt_of, stamp, RecordBuf, Stamp};
use crate::error::StorageError;
use crate::options::Fsync;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering::*};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, RwLock};
use std::task::Waker;
use std::time::{Duration, Instant};

/// The end of the log at one point: the active segment, its length including the buffer, the
/// last LSN, and the open segment files (see `Wal::at_end`).
pub(crate) struct LogEnd {
    pub seg: u32,
    pub seg_len: u64,
    pub lsn: u64,
    pub files: Vec<(u32, Arc<File>)>,
}

/// Where a put's value lies in the log. Packed to 4-byte alignment (28 bytes, not 32): every
/// key's item holds one, and every delta op an item depends on another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, packed(4))]
pub(crate) struct Loc {
    pub seg: u32,
    /// Offset of the value bytes within the segment.
    pub off: u64,
    pub len: u32,
    /// Bytes of the op counted live: the whole op for a put (what compaction would copy);
    /// for a delta op of a chain, at most what it added to the value (`Shard::add_delta`).
    pub op_len: u32,
    /// LSN of the record; the value can be read from the file once `written >= lsn`.
    pub lsn: u64,
}

/// What the log knows of one segment: its record bytes, the LSNs and times (unix ms; 0 when
/// unknown, in a segment written before format 2) of its first and last records. A segment
/// without records has `first_lsn` 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SegMeta {
    pub bytes: u64,
    pub first_lsn: u64,
    pub last_lsn: u64,
    pub first_time: u64,
    pub last_time: u64,
}

impl SegMeta {
    /// Counts one record of `len` bytes with LSN `lsn` and time `time`.
    pub fn add(&mut self, len: u64, lsn: u64, time: u64) {
        if self.first_lsn == 0 {
            self.first_lsn = lsn;
            self.first_time = time;
        }
        self.bytes += len;
        self.last_lsn = lsn;
        self.last_time = time;
    }
}

/// The end of what is durable (fsynced): the segment, its bytes up to there, the LSN and the
/// time of the last record. What backups may read (`archive.rs`): those bytes never change.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct DurablePoint {
    pub seg: u32,
    pub bytes: u64,
    pub lsn: u64,
    pub time: u64,
}

pub(crate) fn segment_path(dir: &Path, seg: u32) -> PathBuf {
    dir.join(format!("wal-{seg:010}.log"))
}

/// A compacted segment's name while it is cut down and removed (`Wal::remove_segment`): no
/// longer part of the log, so a crash midway leaves no cut segment for recovery to read, and
/// recovery removes what is left (`recovery::segment_ids`, by `REMOVING_SUFFIX`).
fn removing_path(dir: &Path, seg: u32) -> PathBuf {
    dir.join(format!("wal-{seg:010}{REMOVING_SUFFIX}"))
}

pub(crate) const REMOVING_SUFFIX: &str = ".removing";

/// A compacted segment's file kept for the next segment (`Wal::recycle`). Not a segment's
/// name, so recovery never reads it as log.
fn spare_path(dir: &Path) -> PathBuf {
    dir.join("wal.spare")
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Bytes of zeros `Wal::zero_ahead` writes at a time: 256 KB (a few ms of `always` writes at
/// most) adds a bounded flush to one fdatasync in every many.
const ZERO_AHEAD: u64 = 256 << 10;
static ZEROS: [u8; ZERO_AHEAD as usize] = [0; ZERO_AHEAD as usize];

/// The average write-out (`Writer::avg_write_out`) up to which `zero_ahead` runs. Measured under
/// `always`, 64 connections, ping-pong, 3 rounds: 128 B values (write-outs of a few KB) writes
/// median 32.6k -> 46.1k ops/s, mixed 43.3k -> 48.1k; 4 KB values (write-outs of up to 256 KB)
/// with zeros ahead of every write-out lost 12 % (writes 20.7-23.1k -> 18.4-19.9k), with this
/// bound they tie (median 26.0k vs 26.3k).
const SMALL_WRITE_OUT: u64 = 16 << 10;

/// Room a new chunk of the append buffer starts with.
const CHUNK_ROOM: usize = 64 << 10;
/// A chunk's buffer is kept for the next one up to this size.
const SPARE_CHUNK: usize = 1 << 20;

struct Chunk {
    seg: u32,
    data: Vec<u8>,
    last_lsn: u64,
    /// The time of the record of `last_lsn`.
    last_time: u64,
}

struct LogBuf {
    chunks: Vec<Chunk>,
    /// What the last write-out emptied, kept for the next records (up to SPARE_CHUNK bytes):
    /// allocating both for every write-out (a ping-pong request's) cost two mallocs of it.
    spare_chunks: Vec<Chunk>,
    spare_data: Vec<u8>,
    /// Segment new records go to, and its length including what is still buffered.
    seg: u32,
    seg_len: u64,
    next_lsn: u64,
    /// The next record starts a new segment even if this one is not full (`seal`).
    seal: bool,
    /// What the CRCs of `seg`'s records are XORed with (`codec::salt_of`; 0 for a segment
    /// written before salts, which the log may still append to after an upgrade).
    salt: u32,
    /// The time (unix ms) of the last record appended: a record's time is the later of the
    /// clock and this, so times never go back along the log (a clock stepped back does not
    /// make a point-in-time recovery skip records).
    last_time: u64,
    /// What `seg` holds so far.
    cur: SegMeta,
}

impl LogBuf {
    /// New records go to the next segment.
    fn next_segment(&mut self) {
        self.seg += 1;
        self.seg_len = 0;
        self.seal = false;
        self.salt = salt_of(self.seg);
        self.cur = SegMeta::default();
    }
}

struct Writer {
    seg: u32,
    file: Arc<File>,
    /// Bytes of records in `file`. A segment the log moved to is preallocated (see
    /// `preallocate`), so the file is longer than its records until the log moves on.
    len: u64,
    /// The file's length when that is more than its records (0 or at most `len` otherwise):
    /// space preallocated, zeros written ahead (`zero_ahead`), or a write of zeros cut short.
    alloc: u64,
    /// Bytes from the file's start whose blocks hold written data — records, zeros
    /// (`zero_ahead`) or a used-again file's old bytes — rather than preallocated (unwritten)
    /// extents or nothing.
    zeroed: u64,
    /// Bytes per write-out, a moving average (`zero_ahead`).
    avg_write_out: u64,
    /// The time of the last record written out (`DurablePoint`).
    written_time: u64,
    unsynced: Vec<(u32, Arc<File>)>,
    dir_dirty: bool,
}

/// Upper bounds (microseconds) of the fsync latency histogram's buckets.
pub const FSYNC_BUCKETS_US: [u64; 12] = [50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 100_000, 500_000, 2_000_000];

#[derive(Default)]
pub(crate) struct WalStats {
    pub fsyncs: AtomicU64,
    pub fsync_ns_total: AtomicU64,
    pub fsync_ns_last: AtomicU64,
    pub fsync_ns_max: AtomicU64,
    /// fsyncs per bucket of `FSYNC_BUCKETS_US` (not cumulative; the last slot is +Inf), for the
    /// fsync latency histogram of `/metrics`.
    pub fsync_buckets: [AtomicU64; FSYNC_BUCKETS_US.len() + 1],
    pub last_fsync_unix_ms: AtomicU64,
    pub writes: AtomicU64,
    /// Bytes of all segment files including what is buffered.
    pub log_bytes: AtomicU64,
    /// Space preallocated past the active segment's records (see `preallocate`): on disk, not
    /// yet records. `log_bytes` plus this is what the log takes on disk.
    pub reserved_bytes: AtomicU64,
    /// Bytes of the spare file (`Wal::recycle`), also on disk and not records.
    pub spare_bytes: AtomicU64,
}

/// What ends the log thread's wait before its timeout (`Wal::wait_for_work`).
pub(crate) enum WakeEarly {
    Never,
    /// Someone waits for an LSN not yet durable (`always`).
    Waiter,
    /// A segment ended (`everysec`: `segment_ended`).
    SegmentEnded,
}

pub(crate) struct Wal {
    dir: PathBuf,
    segment_bytes: u64,
    buf: Mutex<LogBuf>,
    /// Wakes the log thread (paired with `buf`).
    pub(crate) wake: Condvar,
    writer: Mutex<Writer>,
    sync_lock: Mutex<()>,
    /// Open segment files, for reading values back.
    pub(crate) files: RwLock<BTreeMap<u32, Arc<File>>>,
    appended: AtomicU64,
    written: AtomicU64,
    durable: AtomicU64,
    /// Every segment below this one is durable to its end (`sync`), so `rotate` need not fsync it.
    durable_below: AtomicU32,
    mode: AtomicU8,
    poisoned: AtomicBool,
    poison_reason: Mutex<Option<String>>,
    waiters: Mutex<Vec<(u64, Waker)>>,
    /// Highest LSN anyone waits for; the log thread commits while it is above `durable`.
    wanted: AtomicU64,
    /// Set while the log thread sleeps in `wait_for_work` (`wake_log_thread` wakes it only then).
    log_sleeping: AtomicBool,
    /// Under `everysec`, a segment ended since the log thread last looked: it syncs now rather
    /// than at the second's end (`take_segment_ended`), so the next change of segment finds
    /// this one durable (`rotate`).
    segment_ended: AtomicBool,
    pub(crate) stats: WalStats,
    fail_next_fsync: AtomicBool,
    pub(crate) shutdown: AtomicBool,
    /// Replication (`replication.rs`): sees every appended record, in log order.
    pub(crate) stream_hook: std::sync::OnceLock<crate::replication::StreamHook>,
    /// Held by a replica applying a received record and by compaction for each copy, so a
    /// copy never lands in the log between a replicated record and its effect in memory.
    pub(crate) apply_gate: Mutex<()>,
    /// The replication position found at replay (replicas).
    pub(crate) recovered_repl_pos: Mutex<Option<([u8; 40], u64)>>,
    /// Whether the spare file is there (`recycle`); held while it is renamed either way.
    spare: Mutex<bool>,
    /// Segments from this one on were started by this process, so written with salts: only
    /// they are used again (`codec::segment_salt` tells a segment's format by its first record).
    recyclable_from: u32,
    /// Segments recovery found written before salts (`salt`).
    unsalted: Vec<u32>,
    /// What the log knows of each segment that ended (the active one's is `LogBuf::cur`).
    pub(crate) ended: Mutex<BTreeMap<u32, SegMeta>>,
    /// The end of what is durable (`sync`).
    pub(crate) durable_point: Mutex<DurablePoint>,
    /// Archiving (`archive.rs`): compaction removes only segments archived, up to
    /// `archived_upto`, while it is on.
    pub(crate) archive: AtomicBool,
    pub(crate) archived_upto: AtomicU32,
}

impl Wal {
    /// A log whose active segment is `seg` (already open, `seg_len` bytes long), with `lsn`
    /// records replayed before.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        dir: PathBuf,
        segment_bytes: u64,
        mode: Fsync,
        files: BTreeMap<u32, Arc<File>>,
        seg: u32,
        seg_len: u64,
        unsalted: Vec<u32>,
        lsn: u64,
        log_bytes: u64,
        mut metas: BTreeMap<u32, SegMeta>,
        archive: bool,
        archived_upto: u32,
    ) -> Wal {
        let cur = metas.remove(&seg).unwrap_or_default();
        let last_time = metas.values().chain(std::iter::once(&cur)).map(|m| m.last_time).max().unwrap_or(0);
        let durable_point = DurablePoint { seg, bytes: seg_len, lsn, time: last_time };
        let file = files[&seg].clone();
        let stats = WalStats::default();
        stats.log_bytes.store(log_bytes, Relaxed);
        // A spare a crash left is a salted segment's file (only those are kept): used again.
        let spare_bytes = std::fs::metadata(spare_path(&dir)).map(|m| m.len()).ok();
        stats.spare_bytes.store(spare_bytes.unwrap_or(0), Relaxed);
        Wal {
            dir,
            segment_bytes,
            buf: Mutex::new(LogBuf { chunks: Vec::new(), spare_chunks: Vec::new(), spare_data: Vec::new(), seg, seg_len, next_lsn: lsn + 1, seal: false, salt: salt_among(&unsalted, seg), last_time, cur }),
            wake: Condvar::new(),
            writer: Mutex::new(Writer { seg, file, len: seg_len, alloc: 0, zeroed: seg_len, avg_write_out: 0, written_time: last_time, unsynced: Vec::new(), dir_dirty: false }),
            sync_lock: Mutex::new(()),
            files: RwLock::new(files),
            appended: AtomicU64::new(lsn),
            written: AtomicU64::new(lsn),
            durable: AtomicU64::new(lsn),
            durable_below: AtomicU32::new(0),
            mode: AtomicU8::new(mode.to_u8()),
            poisoned: AtomicBool::new(false),
            poison_reason: Mutex::new(None),
            waiters: Mutex::new(Vec::new()),
            wanted: AtomicU64::new(0),
            log_sleeping: AtomicBool::new(false),
            segment_ended: AtomicBool::new(false),
            stats,
            fail_next_fsync: AtomicBool::new(false),
            shutdown: AtomicBool::new(false),
            stream_hook: std::sync::OnceLock::new(),
            apply_gate: Mutex::new(()),
            recovered_repl_pos: Mutex::new(None),
            spare: Mutex::new(spare_bytes.is_some()),
            recyclable_from: seg + 1,
            unsalted,
            ended: Mutex::new(metas),
            durable_point: Mutex::new(durable_point),
            archive: AtomicBool::new(archive),
            archived_upto: AtomicU32::new(archived_upto),
        }
    }

    /// What the CRCs of segment `seg`'s records are XORed with: `codec::salt_of(seg)`, or 0
    /// for a segment written before salts.
    pub(crate) fn salt(&self, seg: u32) -> u32 {
        salt_among(&self.unsalted, seg)
    }

    pub(crate) fn mode(&self) -> Fsync {
        Fsync::from_u8(self.mode.load(Relaxed))
    }

    pub(crate) fn set_mode(&self, mode: Fsync) {
        self.mode.store(mode.to_u8(), Relaxed);
        let _b = lock(&self.buf);
        self.wake.notify_all();
    }

    pub(crate) fn appended(&self) -> u64 {
        self.appended.load(Acquire)
    }
    pub(crate) fn written(&self) -> u64 {
        self.written.load(Acquire)
    }
    pub(crate) fn durable(&self) -> u64 {
        self.durable.load(Acquire)
    }

    pub(crate) fn check_writable(&self) -> Result<(), StorageError> {
        if self.poisoned.load(Acquire) {
            return Err(self.poison_error());
        }
        Ok(())
    }

    pub(crate) fn poison_error(&self) -> StorageError {
        let reason = lock(&self.poison_reason).clone().unwrap_or_else(|| "unknown".into());
        StorageError::Poisoned { reason }
    }

    pub(crate) fn last_error(&self) -> Option<String> {
        lock(&self.poison_reason).clone()
    }

    fn poison(&self, reason: String) -> StorageError {
        {
            let mut r = lock(&self.poison_reason);
            if r.is_none() {
                *r = Some(reason);
            }
        }
        self.poisoned.store(true, Release);
        self.wake_waiters(u64::MAX);
        self.poison_error()
    }

    pub(crate) fn inject_fsync_failure(&self) {
        self.fail_next_fsync.store(true, Release);
    }

    /// Appends a finished record stamped with the clock's time; returns its LSN, its segment,
    /// and what to add to a position in `rec.buf` to get its offset in that segment.
    pub(crate) fn append(&self, rec: &RecordBuf) -> (u64, u32, u64) {
        self.append_timed(rec, None)
    }

    /// `append` with the record's time given (a replica logs its primary's time, so a recovery
    /// of its log to a point in time stops where the primary's would); the log's time never
    /// goes back (`LogBuf::last_time`). The first record of a segment gets the segment's head
    /// op and any record whose millisecond differs from the one before a time op (`codec::stamp`).
    pub(crate) fn append_timed(&self, rec: &RecordBuf, time: Option<u64>) -> (u64, u32, u64) {
        let data = &rec.buf;
        let clock = time.unwrap_or_else(crate::now_ms);
        let mut guard = lock(&self.buf);
        let b = &mut *guard;
        if b.seg_len > 0 && (b.seg_len >= self.segment_bytes || b.seal) {
            self.end_segment(b);
        }
        let time = clock.max(b.last_time);
        let lsn = b.next_lsn;
        b.next_lsn += 1;
        let seg = b.seg;
        let off = b.seg_len;
        let stamped = if b.seg_len == 0 {
            Some(Stamp::Head { lsn, time_ms: time })
        } else if time != b.last_time {
            Some(Stamp::Time(time))
        } else {
            None
        };
        let salt = b.salt.to_le_bytes();
        if !matches!(b.chunks.last(), Some(c) if c.seg == seg) {
            // Room for the records that follow before the next write-out.
            let mut chunk = std::mem::take(&mut b.spare_data);
            chunk.reserve(data.len().max(CHUNK_ROOM));
            b.chunks.push(Chunk { seg, data: chunk, last_lsn: lsn, last_time: time });
        }
        let chunk = b.chunks.last_mut().expect("a chunk of this segment");
        let at = chunk.data.len();
        let shift = match stamped {
            Some(op) => stamp(&mut chunk.data, data, op),
            None => {
                chunk.data.extend_from_slice(data);
                0
            }
        };
        chunk.last_lsn = lsn;
        chunk.last_time = time;
        let written = (chunk.data.len() - at) as u64;
        if let Some(hook) = self.stream_hook.get() {
            // Under the buffer lock, so the stream has the log's order; stamped, so replicas
            // log this node's time. Unsalted: a replica logs each record in a segment of its own.
            hook(&chunk.data[at..]);
        }
        for (byte, s) in chunk.data[at..at + 4].iter_mut().zip(salt) {
            *byte ^= s;
        }
        b.seg_len += written;
        b.last_time = time;
        b.cur.add(written, lsn, time);
        self.appended.store(lsn, Release);
        drop(guard);
        self.stats.log_bytes.fetch_add(written, Relaxed);
        // The log thread is not woken here but by the first waiter: a pipeline appends all
        // its records before it waits, so they share one fsync.
        (lsn, seg, off + shift as u64)
    }

    /// New records go to the next segment; what the log knows of this one is kept (`ended`).
    fn end_segment(&self, b: &mut LogBuf) {
        lock(&self.ended).insert(b.seg, b.cur);
        b.next_segment();
    }

    /// The segment being written and what it holds so far, the time of the last record, and
    /// the LSN the next record gets.
    pub(crate) fn active(&self) -> (u32, SegMeta, u64) {
        let b = lock(&self.buf);
        (b.seg, b.cur, b.next_lsn)
    }

    /// Bytes appended and not yet written out.
    pub(crate) fn buffered_bytes(&self) -> usize {
        lock(&self.buf).chunks.iter().map(|c| c.data.len()).sum()
    }

    /// Runs `f` while no record can be appended, with the log's end at that point
    /// (replication takes a full copy of the log up to it).
    pub(crate) fn at_end<R>(&self, f: impl FnOnce() -> R) -> (LogEnd, R) {
        let b = lock(&self.buf);
        let files = self.files.read().unwrap_or_else(|e| e.into_inner()).iter().map(|(s, f)| (*s, f.clone())).collect();
        let r = f();
        (LogEnd { seg: b.seg, seg_len: b.seg_len, lsn: b.next_lsn - 1, files }, r)
    }

    /// Moves the writer to new segment `seg`. The segment ended is cut to its records but not
    /// made durable here: the next group commit (`sync`: at once under `always`, within a
    /// second under `everysec`) does it, so the thread that writes the first record of the new
    /// segment out (a connection's under `everysec`) does not wait for the disk. Measured with
    /// 4 KB pipelined writes (64 connections, `everysec`, ~150 MB/s of log): that fsync held
    /// the network thread 1.1 s of every 4. The segment before the one ended is made durable
    /// first unless a group commit has done it (under `no` none does), so a crash can damage
    /// only the tails of the last two segments; recovery.rs keeps the log up to the first
    /// damage. Under `everysec` the log thread is asked to sync at once (`segment_ended`; the
    /// caller wakes it, holding the buffer lock), so that the next change of segment finds
    /// this one durable: 4 KB pipelined writes change segment 4 times a second, and an fsync
    /// here then waited ~40 ms. (Under `always` the next waiter's sync does it.)
    fn rotate(&self, w: &mut Writer, seg: u32) -> Result<(), StorageError> {
        let before = w.seg.checked_sub(1).filter(|&s| s >= self.durable_below.load(Acquire));
        let before = before.and_then(|s| Some((s, self.files.read().unwrap_or_else(|e| e.into_inner()).get(&s)?.clone())));
        if let Some((s, f)) = before {
            f.sync_data().map_err(|e| self.poison(format!("fsync of log segment {s}: {e}")))?;
        }
        w.file.set_len(w.len).map_err(|e| self.poison(format!("cut log segment {}: {e}", w.seg)))?;
        if !w.unsynced.iter().any(|(s, _)| *s == w.seg) {
            // Its new length is for the group commit to make durable too.
            w.unsynced.push((w.seg, w.file.clone()));
        }
        if self.mode() == Fsync::EverySec {
            self.segment_ended.store(true, SeqCst);
        }
        let path = segment_path(&self.dir, seg);
        let f = self
            .take_spare(&path)
            .unwrap_or_else(|| OpenOptions::new().create_new(true).write(true).read(true).open(&path))
            .map_err(|e| self.poison(format!("create {}: {e}", path.display())))?;
        // A used-again file's blocks are written (a new file has none).
        w.zeroed = f.metadata().map_or(0, |m| m.len());
        let allocated = if preallocate(&f, self.segment_bytes) { self.segment_bytes } else { 0 };
        // A used-again file may be longer than a segment.
        w.alloc = allocated.max(w.zeroed);
        w.file = Arc::new(f);
        w.seg = seg;
        w.len = 0;
        w.dir_dirty = true;
        self.stats.reserved_bytes.store(w.alloc, Relaxed);
        self.files.write().unwrap_or_else(|e| e.into_inner()).insert(seg, w.file.clone());
        Ok(())
    }

    /// Ends the segment written to, so compaction can take it (it takes only segments no
    /// longer written to). With records in the buffer the next record starts the new segment
    /// (the connections waiting for them write them out); with none, it starts now, under the
    /// buffer's lock so `at_end` never sees a segment without its file: a log that stopped
    /// growing is compacted too.
    pub(crate) fn seal(&self) -> Result<(), StorageError> {
        let mut w = lock(&self.writer);
        self.write_out_locked(&mut w)?;
        let mut b = lock(&self.buf);
        if b.seg_len == 0 {
            return Ok(());
        }
        if !b.chunks.is_empty() || b.seg != w.seg {
            b.seal = true;
            return Ok(());
        }
        self.end_segment(&mut b);
        self.rotate(&mut w, b.seg)?;
        self.wake_log_thread(&b);
        Ok(())
    }

    /// Moves the buffer to the segment files (no fsync).
    pub(crate) fn write_out(&self) -> Result<(), StorageError> {
        let mut w = lock(&self.writer);
        self.write_out_locked(&mut w)
    }

    fn write_out_locked(&self, w: &mut Writer) -> Result<(), StorageError> {
        self.check_writable()?;
        let mut chunks = {
            let mut b = lock(&self.buf);
            let spare = std::mem::take(&mut b.spare_chunks);
            std::mem::replace(&mut b.chunks, spare)
        };
        let mut emptied = Vec::new();
        let mut rotated = false;
        let len_before = w.len;
        for c in chunks.drain(..) {
            if c.seg != w.seg {
                self.rotate(w, c.seg)?;
                rotated = true;
            }
            w.file
                .write_all_at(&c.data, w.len)
                .map_err(|e| self.poison(format!("write to log segment {}: {e}", w.seg)))?;
            w.len += c.data.len() as u64;
            self.stats.reserved_bytes.store(w.alloc.saturating_sub(w.len), Relaxed);
            self.stats.writes.fetch_add(1, Relaxed);
            if !w.unsynced.iter().any(|(s, _)| *s == w.seg) {
                w.unsynced.push((w.seg, w.file.clone()));
            }
            self.written.store(c.last_lsn, Release);
            w.written_time = c.last_time;
            emptied = c.data;
        }
        {
            let mut b = lock(&self.buf);
            b.spare_chunks = chunks;
            if emptied.capacity() <= SPARE_CHUNK && b.spare_data.capacity() == 0 {
                emptied.clear();
                b.spare_data = emptied;
            }
            if rotated {
                self.wake_log_thread(&b);
            }
        }
        if self.mode() != Fsync::Always {
            self.wake_waiters(self.written());
        } else if w.len != len_before {
            // (Across a rotation the new segment's length alone: a slight undercount.)
            w.avg_write_out = (w.avg_write_out * 7 + w.len.saturating_sub(len_before)) / 8;
            if w.avg_write_out <= SMALL_WRITE_OUT {
                self.zero_ahead(w);
            }
        }
        Ok(())
    }

    /// Under `always`, writes zeros into the blocks just past the records, `ZERO_AHEAD` at a
    /// time, so the fdatasyncs that follow find their records in written blocks. One into a
    /// preallocated (unwritten) extent also commits the extent's conversion in the journal,
    /// and one past the file's end its new size: on this host's ext4, 4 KB pwrite + fdatasync
    /// took p50 104-106 us into written blocks against 172-213 us into a fallocated file.
    /// PostgreSQL zero-fills its WAL files for the same reason (`wal_init_zero`). Each block is
    /// then written twice, so only while write-outs are small (`SMALL_WRITE_OUT`), where the
    /// journal commit outweighs the bytes; not under `everysec`, where no request waits for the
    /// fdatasync. A failed write of zeros loses nothing (no record is in them): the segment
    /// goes on without, its space past the records counted from the file's length (a write
    /// that failed partway, on a full disk, may have grown the file).
    fn zero_ahead(&self, w: &mut Writer) {
        if w.len + ZERO_AHEAD / 2 <= w.zeroed {
            return;
        }
        let from = w.zeroed.max(w.len);
        let to = (from + ZERO_AHEAD).min(self.segment_bytes);
        if to <= from {
            return;
        }
        if w.file.write_all_at(&ZEROS[..(to - from) as usize], from).is_err() {
            w.zeroed = self.segment_bytes;
            if let Ok(meta) = w.file.metadata() {
                w.alloc = w.alloc.max(meta.len());
            }
        } else {
            w.zeroed = to;
            w.alloc = w.alloc.max(to);
        }
        self.stats.reserved_bytes.store(w.alloc.saturating_sub(w.len), Relaxed);
    }

    /// Writes out and fsyncs everything appended so far (one group commit).
    pub(crate) fn sync(&self) -> Result<(), StorageError> {
        let _one_at_a_time = lock(&self.sync_lock);
        let (files, lsn, dir_dirty, active, point) = {
            let mut w = lock(&self.writer);
            self.write_out_locked(&mut w)?;
            let lsn = self.written();
            let point = DurablePoint { seg: w.seg, bytes: w.len, lsn, time: w.written_time };
            (std::mem::take(&mut w.unsynced), lsn, std::mem::take(&mut w.dir_dirty), w.seg, point)
        };
        if lsn <= self.durable() && files.is_empty() {
            self.durable_below.fetch_max(active, AcqRel);
            return Ok(());
        }
        // Not under the writer lock: under `everysec` connections go on writing while it runs.
        let started = Instant::now();
        self.fsync_files(&files, dir_dirty)?;
        let ns = started.elapsed().as_nanos() as u64;
        self.stats.fsyncs.fetch_add(1, Relaxed);
        self.stats.fsync_ns_total.fetch_add(ns, Relaxed);
        self.stats.fsync_ns_last.store(ns, Relaxed);
        self.stats.fsync_ns_max.fetch_max(ns, Relaxed);
        let slot = FSYNC_BUCKETS_US.iter().position(|&b| ns / 1000 <= b).unwrap_or(FSYNC_BUCKETS_US.len());
        self.stats.fsync_buckets[slot].fetch_add(1, Relaxed);
        self.stats.last_fsync_unix_ms.store(crate::now_ms(), Relaxed);
        self.durable.fetch_max(lsn, AcqRel);
        {
            let mut p = lock(&self.durable_point);
            if point.lsn >= p.lsn {
                *p = point;
            }
        }
        // Every segment ended before the write-out above was in `files` (`rotate` puts it there)
        // or made durable by an earlier sync (one runs at a time).
        self.durable_below.fetch_max(active, AcqRel);
        self.wake_waiters(self.durable());
        Ok(())
    }

    fn fsync_files(&self, files: &[(u32, Arc<File>)], dir_dirty: bool) -> Result<(), StorageError> {
        for (seg, f) in files {
            let res = if self.fail_next_fsync.swap(false, AcqRel) {
                Err(std::io::Error::other("injected fsync failure"))
            } else {
                f.sync_data()
            };
            res.map_err(|e| self.poison(format!("fsync of log segment {seg}: {e}")))?;
        }
        if dir_dirty {
            sync_dir(&self.dir).map_err(|e| self.poison(e.to_string()))?;
        }
        Ok(())
    }

    /// True once `lsn` may be acknowledged under the current mode.
    pub(crate) fn is_done(&self, lsn: u64) -> bool {
        match self.mode() {
            Fsync::Always => self.durable() >= lsn,
            _ => self.written() >= lsn,
        }
    }

    pub(crate) fn register_waiter(&self, lsn: u64, waker: &Waker) {
        let mut w = lock(&self.waiters);
        if let Some(slot) = w.iter_mut().find(|(_, wk)| wk.will_wake(waker)) {
            slot.0 = lsn;
        } else {
            w.push((lsn, waker.clone()));
        }
        drop(w);
        // SeqCst pairs with `wait_for_work`: either it sees this `wanted` before it sleeps, or
        // this sees it sleeping and wakes it. The buffer lock only when it sleeps: under
        // `always` nearly every request raises `wanted`.
        if self.wanted.fetch_max(lsn, SeqCst) < lsn && self.log_sleeping.load(SeqCst) {
            self.wake_log_thread(&lock(&self.buf));
        }
    }

    /// Wakes the log thread if it sleeps in `wait_for_work`, after the caller stored what it
    /// should look at (`wanted`, `segment_ended`; SeqCst). The caller holds the buffer lock
    /// (`_held`): `wait_for_work` looks at those under it before it sleeps, so the wake-up is
    /// never lost between its look and its sleep. Not notifying when it does not sleep saves a
    /// futex call per request under `always`.
    fn wake_log_thread(&self, _held: &MutexGuard<'_, LogBuf>) {
        if self.log_sleeping.load(SeqCst) {
            self.wake.notify_one();
        }
    }

    fn wake_waiters(&self, upto: u64) {
        let mut ready = Vec::new();
        {
            let mut w = lock(&self.waiters);
            if w.is_empty() {
                return;
            }
            w.retain(|(lsn, wk)| {
                if *lsn <= upto {
                    ready.push(wk.clone());
                    false
                } else {
                    true
                }
            });
        }
        for wk in ready {
            wk.wake();
        }
    }

    /// Whether a segment ended since the last call (see `segment_ended`).
    pub(crate) fn take_segment_ended(&self) -> bool {
        self.segment_ended.swap(false, SeqCst)
    }

    pub(crate) fn is_poisoned(&self) -> bool {
        self.poisoned.load(Acquire)
    }

    /// Blocks the log thread until `timeout` passes, shutdown, or what `early` names.
    pub(crate) fn wait_for_work(&self, timeout: Duration, early: WakeEarly) {
        let b = lock(&self.buf);
        if self.shutdown.load(Acquire) {
            return;
        }
        self.log_sleeping.store(true, SeqCst);
        let due = match early {
            WakeEarly::Never => false,
            WakeEarly::Waiter => self.wanted.load(SeqCst) > self.durable(),
            WakeEarly::SegmentEnded => self.segment_ended.load(SeqCst),
        };
        if due {
            self.log_sleeping.store(false, SeqCst);
            return;
        }
        let _ = self.wake.wait_timeout(b, timeout);
        self.log_sleeping.store(false, SeqCst);
    }

    /// Cuts the active segment's preallocated space off (at shutdown, after the last sync), so
    /// the next open finds the log ending where its records end.
    pub(crate) fn trim_active(&self) {
        let w = lock(&self.writer);
        if w.file.set_len(w.len).and_then(|_| w.file.sync_all()).is_ok() {
            self.stats.reserved_bytes.store(0, Relaxed);
        }
    }

    /// The segment new records go to, and the oldest segment on disk.
    pub(crate) fn active_segment(&self) -> u32 {
        lock(&self.writer).seg
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Removes a compacted segment (its live records were copied and synced first): keeps its
    /// file for the next segment (`recycle`) or deletes it.
    pub(crate) fn remove_segment(&self, seg: u32) -> Result<(), StorageError> {
        let f = self.files.write().unwrap_or_else(|e| e.into_inner()).remove(&seg);
        lock(&self.ended).remove(&seg);
        let len = f.as_ref().and_then(|f| f.metadata().ok()).map(|m| m.len()).unwrap_or(0);
        let mut path = segment_path(&self.dir, seg);
        // Out of the map no one can take the file again; a reader that took it before (a cold
        // read, a replica's catch-up) still reads it whole, so it is only cut or written again
        // when none did.
        let unread = f.is_some_and(|f| Arc::try_unwrap(f).is_ok());
        let gone = || self.stats.log_bytes.fetch_sub(len.min(self.stats.log_bytes.load(Relaxed)), Relaxed);
        if unread && seg >= self.recyclable_from && self.recycle(&path, len)? {
            gone();
            return Ok(());
        }
        // Under `always` every write waits for the next fdatasync, which waits for a removal
        // that frees the whole segment at once: cut it in steps first (`shrink_in_steps`).
        if self.mode() == Fsync::Always && unread {
            let removing = removing_path(&self.dir, seg);
            std::fs::rename(&path, &removing).map_err(|e| StorageError::io(format!("rename {}", path.display()), e))?;
            sync_dir(&self.dir)?;
            path = removing;
            shrink_in_steps(&path, len);
        }
        std::fs::remove_file(&path).map_err(|e| StorageError::io(format!("remove {}", path.display()), e))?;
        sync_dir(&self.dir)?;
        gone();
        Ok(())
    }

    /// Keeps a compacted segment's file (renamed out of the log) for the next segment, which
    /// takes it in `rotate` (`take_spare`), unless one is kept already; true if it kept it.
    /// PostgreSQL recycles its WAL files for the same reasons: a new segment's file was
    /// allocated with `fallocate` (11-14 ms under load), its blocks unwritten extents that each
    /// fdatasync converted in a journal commit (4 KB write + fdatasync: 172-213 us, against
    /// 104-106 us into written blocks, on this host's ext4), and a removal's freeing of 64 MB
    /// stalled the journal (`shrink_in_steps`). The old records left in the file past the new
    /// ones are never read as log: their CRCs are salted with their own segment's id
    /// (`codec::salt_of`).
    fn recycle(&self, path: &Path, len: u64) -> Result<bool, StorageError> {
        let mut spare = lock(&self.spare);
        if *spare {
            return Ok(false);
        }
        let to = spare_path(&self.dir);
        std::fs::rename(path, &to).map_err(|e| StorageError::io(format!("rename {} to {}", path.display(), to.display()), e))?;
        *spare = true;
        self.stats.spare_bytes.store(len, Relaxed);
        drop(spare);
        // As after a removal: a compacted segment must not come back into the log.
        sync_dir(&self.dir)?;
        Ok(true)
    }

    /// The spare file (`recycle`) renamed to new segment `path` and opened; None without a
    /// spare, and the segment is created as without one. After the rename, the open's own
    /// error (creating the segment anew would only fail with "File exists").
    fn take_spare(&self, path: &Path) -> Option<std::io::Result<File>> {
        let mut spare = lock(&self.spare);
        if !std::mem::take(&mut *spare) {
            return None;
        }
        self.stats.spare_bytes.store(0, Relaxed);
        // A spare someone removed meanwhile: the segment is created as without one.
        std::fs::rename(spare_path(&self.dir), path).ok()?;
        Some(OpenOptions::new().write(true).read(true).open(path))
    }
}

/// `Wal::salt` of `seg`, given the segments written before salts.
fn salt_among(unsalted: &[u32], seg: u32) -> u32 {
    if unsalted.contains(&seg) {
        0
    } else {
        salt_of(seg)
    }
}

/// Makes the directory's entries (a file created, renamed or removed) durable.
pub(crate) fn sync_dir(dir: &Path) -> Result<(), StorageError> {
    File::open(dir).and_then(|d| d.sync_all()).map_err(|e| StorageError::io(format!("fsync {}", dir.display()), e))
}

/// Bytes a removed segment is cut by at a time (`shrink_in_steps`).
const REMOVE_STEP: u64 = 1 << 20;

/// Cuts a segment about to be removed (renamed out of the log) from its end, `REMOVE_STEP` at
/// a time, so that no one journal transaction frees all of it. Freeing a 64 MB segment at once
/// (its unlink) took 55-66 ms on this host's ext4 (mounted with `discard`: the commit that
/// frees blocks trims them), and the log's fdatasyncs waited for it (seen with `perf trace`):
/// under `fsync always` each compaction stalled every write 50-60 ms. A 1 MB cut takes about
/// 1 ms. Measured under `always`, 4 KB values, 64 connections: ping-pong write p99 median of
/// 4 rounds 11.6 -> 6.9 ms; pipelined (32) write p99 162-183 -> 110-116 ms. Not under
/// `everysec`, where no write waits for the fdatasync and the steps (each a journal handle and
/// an orphan-list update) slowed compaction under pipelined 4 KB writes by a fifth and
/// throughput by 8-12 %. Best effort: what a failed cut leaves, the unlink frees.
fn shrink_in_steps(path: &Path, len: u64) {
    let Ok(f) = OpenOptions::new().write(true).open(path) else { return };
    let mut at = len;
    while at > REMOVE_STEP {
        at -= REMOVE_STEP;
        if f.set_len(at).is_err() {
            return;
        }
    }
}

/// Allocates a new segment's blocks up front: an fdatasync after writes inside the file's size
/// does not also write the inode for a new size. On this host's ext4, 2.6 KB writes each
/// followed by fdatasync took 123-144 us instead of 142-212 us. Best effort: a filesystem
/// without fallocate (or out of space for a whole segment) appends as before. True when the
/// space was allocated.
fn preallocate(f: &File, bytes: u64) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: a plain syscall on an open descriptor; no memory is passed.
    unsafe { libc::fallocate(f.as_raw_fd(), 0, 0, bytes as libc::off_t) == 0 }
}
