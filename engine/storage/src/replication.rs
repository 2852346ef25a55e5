//! What replication needs from the store (the protocol and roles live in the server's
//! `replication/`):
//! - a primary streams every record it appends, in log order ([`Db::set_stream_hook`]), and
//!   gives a new replica a full copy of its log from a point that the stream continues
//!   ([`Db::log_copy_at_end`]): replaying the copy then the stream rebuilds its data exactly,
//!   as recovery does, while the primary keeps taking writes;
//! - a replica appends each received record to its own log and applies it with the one
//!   function replay uses ([`Db::apply_replicated`]), so every record kind has one meaning.
//!   Each such record carries, as its last op, the replication position it brings the
//!   replica to, so after a crash the replica knows exactly which records it holds
//!   ([`Db::recovered_repl_pos`]) and resumes there instead of copying everything again.

use crate::codec::{parse_record, Op, RecordBuf, HEADER, REPL_POS_LEN};
use crate::db::Db;
use crate::error::StorageError;
use crate::recovery::{apply_record, Place};
use crate::wal::{lock, segment_path};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::{Arc, Mutex};

/// Called under the log's append lock with each finished record, in log order.
pub type StreamHook = Box<dyn Fn(&[u8]) + Send + Sync>;

/// A replication id (40 bytes) and an offset in its stream. An all-zero id means "unknown":
/// a replica whose log ends in one (a full copy cut short, a promotion) must copy again.
pub type ReplPos = ([u8; 40], u64);

/// Bytes of a record's header (crc32, length).
pub const RECORD_HEADER: usize = HEADER;

/// The length of the record starting at `buf[0]`, once its header is there.
pub fn record_len(buf: &[u8]) -> Option<usize> {
    let len = u32::from_le_bytes(buf.get(4..8)?.try_into().ok()?) as usize;
    Some(HEADER + len)
}

/// The segments of the log up to one point, read as one byte stream of whole records, their
/// CRCs unsalted (the stream's records are: a replica logs them in segments of its own).
pub struct LogCopy {
    segments: Vec<CopySegment>,
    /// Where the primary reads the copy in order, so unsalting walks each record header once.
    cursor: Mutex<Cursor>,
}

/// Where `read_at` stands in the copy (`CopySegment::unsalt`).
#[derive(Default)]
struct Cursor {
    /// Where the last read ended: a read from there goes on from `next_record`.
    read_end: u64,
    /// Where the first record starts whose CRC has not been given out whole.
    next_record: u64,
}

struct CopySegment {
    file: Arc<File>,
    len: u64,
    /// What its records' CRCs are XORed with (`Wal::salt`).
    salt: u32,
}

impl CopySegment {

    /// Takes the salt off the CRCs of the records whose CRC bytes lie in `buf`, read from
    /// `local` of this segment (`base` in the copy).
    fn unsalt(&self, base: u64, local: u64, buf: &mut [u8], cursor: &mut Cursor) -> std::io::Result<()> {
        let (pos, end) = (base + local, base + local + buf.len() as u64);
        let next = &mut cursor.next_record;
        if cursor.read_end != pos || *next < base {
            // Read out of order, or the first read of this segment: its records from the start.
            // (Not when `next` lies past `pos`: that is the record the last read ended in,
            // running on. Walking from the start then made a full copy quadratic: 13.6 MB of
            // 100-byte records took 2.2 s instead of 2.9 ms.)
            *next = base;
        }
        cursor.read_end = end;
        let salt = self.salt.to_le_bytes();
        while *next < end && *next < base + self.len {
            let at = *next;
            for (i, s) in salt.iter().enumerate() {
                let g = at + i as u64;
                if g >= pos && g < end {
                    buf[(g - pos) as usize] ^= s;
                }
            }
            if at + 4 > end {
                break; // the rest of this CRC is in the next read
            }
            let mut len = [0u8; 4];
            if at >= pos && at + HEADER as u64 <= end {
                let i = (at - pos) as usize;
                len.copy_from_slice(&buf[i + 4..i + HEADER]);
            } else {
                self.file.read_exact_at(&mut len, at - base + 4)?;
            }
            *next = at + (HEADER + u32::from_le_bytes(len) as usize) as u64;
        }
        Ok(())
    }
}

impl LogCopy {
    pub fn len(&self) -> u64 {
        self.segments.iter().map(|s| s.len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads from `pos` of the concatenated segments into `buf`; 0 at the end.
    pub fn read_at(&self, pos: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut base = 0;
        for seg in &self.segments {
            if pos >= base + seg.len {
                base += seg.len;
                continue;
            }
            let local = pos - base;
            let n = buf.len().min((seg.len - local) as usize);
            seg.file.read_exact_at(&mut buf[..n], local)?;
            if seg.salt != 0 {
                seg.unsalt(base, local, &mut buf[..n], &mut lock(&self.cursor))?;
            }
            return Ok(n);
        }
        Ok(0)
    }
}

impl Db {
    /// Installs the hook that sees every appended record (once per store; false if set).
    pub fn set_stream_hook(&self, hook: StreamHook) -> bool {
        self.inner().wal.stream_hook.set(hook).is_ok()
    }

    /// Runs `f` at a point where no record is being appended and returns the log up to that
    /// point with `f`'s result (the server notes its stream offset there). The segments stay
    /// readable even if compaction deletes them meanwhile (their files are held open).
    pub fn log_copy_at_end<R>(&self, f: impl FnOnce() -> R) -> Result<(LogCopy, R), StorageError> {
        let wal = &self.inner().wal;
        let (crate::wal::LogEnd { seg, seg_len, lsn, mut files }, r) = wal.at_end(f);
        if wal.written() < lsn {
            wal.write_out()?;
        }
        if !files.iter().any(|(s, _)| *s == seg) && seg_len > 0 {
            let now = wal.files.read().unwrap_or_else(|e| e.into_inner()).get(&seg).cloned();
            let file = now.ok_or_else(|| StorageError::Corrupt {
                path: segment_path(wal.dir(), seg),
                offset: 0,
                reason: "the active segment is missing".into(),
            })?;
            files.push((seg, file));
        }
        let mut segments = Vec::new();
        for (s, file) in files.into_iter().filter(|(s, _)| *s <= seg) {
            let len = if s == seg {
                seg_len
            } else {
                file.metadata().map_err(|e| StorageError::io(format!("stat log segment {s}"), e))?.len()
            };
            segments.push(CopySegment { salt: wal.salt(s), file, len });
        }
        Ok((LogCopy { segments, cursor: Mutex::default() }, r))
    }

    /// The replication position the log ended with at open (replicas), if any.
    pub fn recovered_repl_pos(&self) -> Option<ReplPos> {
        *lock(&self.inner().wal.recovered_repl_pos)
    }

    /// Appends a record received from the primary to this store's log and applies it, the
    /// position `pos` (if given) riding in the same record so a crash keeps both or neither.
    /// A position op the record already carries (the primary's own, from when it was a
    /// replica) is dropped. Returns the LSN to wait for (0: nothing appended).
    pub fn apply_replicated(&self, record: &[u8], pos: Option<&ReplPos>) -> Result<u64, StorageError> {
        let bad = |reason: String| StorageError::Corrupt { path: "<replication stream>".into(), offset: 0, reason };
        // The primary's time op (or segment head, in a full copy) is taken off: this log stamps
        // the record itself, with the primary's time (the last one it sent, for a record
        // without one), so a recovery of this log to a point in time stops where the primary's
        // would. A primary that logs no times (format 1) leaves this node's clock.
        let (record, time) = crate::codec::unstamp(record);
        let repl_time = &self.inner().repl_time;
        if let Some(t) = time {
            repl_time.store(t, std::sync::atomic::Ordering::Relaxed);
        }
        let time = Some(repl_time.load(std::sync::atomic::Ordering::Relaxed)).filter(|&t| t != 0);
        let record = &record[..];
        let (ops, end) = parse_record(record, 0, 0).map_err(|e| bad(format!("{e:?}")))?;
        if end != record.len() {
            return Err(bad("trailing bytes after the record".into()));
        }
        let nops = ops.len();
        let strip = matches!(ops.last(), Some(Op::ReplPos { .. }));
        drop(ops);
        let kept = if strip { nops - 1 } else { nops };
        if kept == 0 && pos.is_none() {
            return Ok(0);
        }
        let mut buf = Vec::with_capacity(record.len() + REPL_POS_LEN);
        buf.extend_from_slice(&record[..record.len() - if strip { REPL_POS_LEN } else { 0 }]);
        let mut nops = kept as u32;
        if let Some((id, offset)) = pos {
            buf.push(crate::codec::OP_REPL_POS);
            buf.extend_from_slice(id);
            buf.extend_from_slice(&offset.to_le_bytes());
            nops += 1;
        }
        self.append_and_apply(finish(buf, nops), time)
    }

    /// Before a full copy: every key goes (as FLUSHALL) and the position becomes unknown in
    /// the same record, so a crash during the copy leads to a full copy again, never to a
    /// resume on top of half a copy.
    pub fn reset_for_full_copy(&self) -> Result<u64, StorageError> {
        let mut rec = RecordBuf::new();
        rec.flush_all();
        rec.repl_pos(&[0; 40], 0);
        rec.finish();
        self.append_and_apply(rec.buf, None)
    }

    /// Logs a replication position alone (after a full copy; unknown after a promotion).
    pub fn log_repl_pos(&self, pos: &ReplPos) -> Result<u64, StorageError> {
        let mut rec = RecordBuf::new();
        rec.repl_pos(&pos.0, pos.1);
        rec.finish();
        self.append_and_apply(rec.buf, None)
    }

    fn append_and_apply(&self, stored: Vec<u8>, time: Option<u64>) -> Result<u64, StorageError> {
        let inner = self.inner();
        let wal = &inner.wal;
        let rec = RecordBuf::from_finished(stored);
        let (ops, _) = parse_record(&rec.buf, 0, 0)
            .map_err(|e| StorageError::Corrupt { path: "<replication stream>".into(), offset: 0, reason: format!("{e:?}") })?;
        let named = ops
            .iter()
            .filter_map(|op| match *op {
                Op::Select(d) => Some([d, d]),
                Op::SwapDb(a, b) => Some([a, b]),
                _ => None,
            })
            .flatten();
        // A database past the last is refused before the record is logged: logged, it would
        // keep the store from opening again (recovery refuses such a log).
        if let Some(d) = named.clone().find(|&d| d >= inner.databases) {
            let reason = format!("the record names database {d}, but databases is {}", inner.databases);
            return Err(StorageError::Corrupt { path: "<replication stream>".into(), offset: 0, reason });
        }
        let gate = lock(&wal.apply_gate);
        wal.check_writable()?;
        // The databases the record puts items in or swaps are in use from now on, as a
        // client's are once it selects one (Db::keyspace): compaction looks only in those.
        named.for_each(|d| inner.mark_in_use(d));
        let (lsn, seg, off) = wal.append_timed(&rec, time);
        if ops.iter().any(|op| matches!(op, Op::SwapDb(..))) {
            // Before the swap is applied, as Db::swap_db (seen.rs).
            inner.swapped_lsn.fetch_max(lsn, std::sync::atomic::Ordering::Relaxed);
        }
        let path = segment_path(wal.dir(), seg);
        let at = Place { seg, lsn, db: 0, base: off };
        let applied = apply_record(&inner.opts, &inner.shards, &inner.counters, at, crate::now_ms(), &path, 0, ops);
        drop(gate);
        applied?;
        inner.maybe_evict();
        Ok(lsn)
    }
}

/// Fills in op count, length and CRC of a record built by hand.
fn finish(mut buf: Vec<u8>, nops: u32) -> Vec<u8> {
    let len = (buf.len() - HEADER) as u32;
    buf[HEADER..HEADER + 4].copy_from_slice(&nops.to_le_bytes());
    buf[4..8].copy_from_slice(&len.to_le_bytes());
    let crc = crc32fast::hash(&buf[4..]);
    buf[0..4].copy_from_slice(&crc.to_le_bytes());
    buf
}
