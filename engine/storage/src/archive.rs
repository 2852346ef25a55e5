//! Archiving and base backups (issue 44): what a control plane that pulls the log needs.
//!
//! - [`Db::backup_segments`] lists the segments with what may be read of each: the bytes up to
//!   the durable point (`Wal::durable_point`), which never change. A segment that ended and is
//!   durable is *sealed* (all of it may be read, and it never changes); the active segment is
//!   listed with its durable prefix (not sealed). The control plane uploads sealed segments
//!   whole and the active one's prefix as a partial piece, as `pg_receivewal` keeps `.partial`
//!   files; the whole segment replaces it once sealed.
//! - [`Db::read_segment`] reads those bytes.
//! - [`Db::mark_archived`] records that a sealed segment is uploaded, in segment order: the
//!   number of the last one archived is kept in `wal.archived` (written to a temporary file,
//!   fsynced, renamed, the dir fsynced), and while archiving is on compaction removes only
//!   segments up to it (`compact::maybe_compact`), as PostgreSQL keeps a WAL file until its
//!   `.ready` became `.done`.
//! - [`Db::take_base`] makes everything appended durable and returns the segments up to that
//!   point: replayed in order they rebuild exactly the data at its end (a restart does the same
//!   with the same files). Segments are immutable, and compaction writes live data into new
//!   segments, so a new base shares every segment still live with the last one.
//! - The seal interval (`worker.rs`): while archiving is on, what is appended is made durable
//!   (and so readable) within `archive_seal_interval_ms`, which bounds what a lost node takes
//!   with it. Under `fsync always` every acknowledged write is durable already.

use crate::db::Db;
use crate::error::StorageError;
use crate::wal::{lock, sync_dir};
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};

/// The file holding the number of the last segment archived.
const ARCHIVED_FILE: &str = "wal.archived";

/// Most bytes one [`Db::read_segment`] returns.
pub const MAX_READ: usize = 8 << 20;

/// One segment as [`Db::backup_segments`] lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SegmentInfo {
    pub id: u32,
    /// Bytes that may be read: all of a sealed segment, the durable prefix of the active one.
    pub bytes: u64,
    /// LSNs and times (unix ms) of the first and last records in those bytes (0: none, or
    /// unknown in a segment written before log format 2).
    pub first_lsn: u64,
    pub last_lsn: u64,
    pub first_time_ms: u64,
    pub last_time_ms: u64,
    /// The segment ended and is durable: its bytes never change.
    pub sealed: bool,
    /// Marked archived ([`Db::mark_archived`]).
    pub archived: bool,
}

/// A base backup ([`Db::take_base`]): its segments, and the LSN and time its data ends at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Base {
    pub segments: Vec<SegmentInfo>,
    pub end_lsn: u64,
    pub end_time_ms: u64,
}

/// The last segment archived, as `wal.archived` holds it (0 without the file).
pub(crate) fn read_archived(dir: &Path) -> Result<u32, StorageError> {
    let path = dir.join(ARCHIVED_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => text.trim().parse().map_err(|_| StorageError::Corrupt {
            path,
            offset: 0,
            reason: format!("expected a segment number, found {:?}", text.trim()),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(0),
        Err(e) => Err(StorageError::io(format!("read {}", path.display()), e)),
    }
}

fn write_archived(dir: &Path, seg: u32) -> Result<(), StorageError> {
    let path = dir.join(ARCHIVED_FILE);
    let tmp = dir.join(format!("{ARCHIVED_FILE}.tmp"));
    let io = |what: &str, e| StorageError::io(format!("{what} {}", tmp.display()), e);
    let mut f = std::fs::File::create(&tmp).map_err(|e| io("create", e))?;
    f.write_all(format!("{seg}\n").as_bytes()).and_then(|_| f.sync_all()).map_err(|e| io("write", e))?;
    std::fs::rename(&tmp, &path).map_err(|e| io("rename", e))?;
    sync_dir(dir)
}

impl Db {
    /// Every segment up to the durable point, oldest first (see the module's comment).
    pub fn backup_segments(&self) -> Vec<SegmentInfo> {
        let wal = &self.inner().wal;
        let point = *lock(&wal.durable_point);
        let (active, cur, _) = wal.active();
        let mut metas = lock(&wal.ended).clone();
        metas.insert(active, cur);
        let archived_upto = wal.archived_upto.load(Acquire);
        let present: Vec<u32> = wal.files.read().unwrap_or_else(|e| e.into_inner()).keys().copied().collect();
        present
            .into_iter()
            .filter(|&id| id <= point.seg)
            .map(|id| {
                let m = metas.get(&id).copied().unwrap_or_default();
                let (bytes, last_lsn, last_time_ms) = if id < point.seg { (m.bytes, m.last_lsn, m.last_time) } else { (point.bytes, point.lsn, point.time) };
                let has = m.first_lsn != 0 && bytes > 0;
                SegmentInfo {
                    id,
                    bytes,
                    first_lsn: if has { m.first_lsn } else { 0 },
                    last_lsn: if has { last_lsn } else { 0 },
                    first_time_ms: if has { m.first_time } else { 0 },
                    last_time_ms: if has { last_time_ms } else { 0 },
                    sealed: id < point.seg,
                    archived: id <= archived_upto,
                }
            })
            .collect()
    }

    /// Reads `buf.len()` bytes (at most [`MAX_READ`]) of segment `id` from `offset`, within what
    /// [`Db::backup_segments`] says may be read; returns how many (0 at its end).
    pub fn read_segment(&self, id: u32, offset: u64, buf: &mut [u8]) -> Result<usize, StorageError> {
        let readable = self.backup_segments().into_iter().find(|s| s.id == id).map(|s| s.bytes);
        let readable = readable.ok_or_else(|| StorageError::InvalidOptions(format!("no segment {id} to read")))?;
        if offset > readable {
            return Err(StorageError::InvalidOptions(format!("offset {offset} is past the {readable} bytes of segment {id}")));
        }
        let n = buf.len().min(MAX_READ).min((readable - offset) as usize);
        let file = self.inner().wal.files.read().unwrap_or_else(|e| e.into_inner()).get(&id).cloned();
        let file = file.ok_or_else(|| StorageError::InvalidOptions(format!("no segment {id} to read")))?;
        file.read_exact_at(&mut buf[..n], offset).map_err(|e| StorageError::io(format!("read log segment {id}"), e))?;
        Ok(n)
    }

    /// Records that sealed segment `id` is archived: every segment on disk before it must be
    /// archived already (segments are archived in order, so a restore finds no gap). Marking one
    /// already archived changes nothing.
    pub fn mark_archived(&self, id: u32) -> Result<(), StorageError> {
        let wal = &self.inner().wal;
        let _one_at_a_time = lock(&self.inner().archive_lock);
        let upto = wal.archived_upto.load(Acquire);
        if id <= upto {
            return Ok(());
        }
        let segments = self.backup_segments();
        match segments.iter().find(|s| s.id == id) {
            Some(s) if s.sealed => {}
            Some(_) => return Err(StorageError::InvalidOptions(format!("segment {id} is not sealed yet"))),
            None => return Err(StorageError::InvalidOptions(format!("no segment {id}"))),
        }
        if let Some(gap) = segments.iter().find(|s| s.id > upto && s.id < id) {
            return Err(StorageError::InvalidOptions(format!("segment {} is not archived yet: segments are marked in order", gap.id)));
        }
        write_archived(wal.dir(), id)?;
        wal.archived_upto.store(id, Release);
        Ok(())
    }

    /// Makes everything appended so far durable and returns the segments that hold it: a
    /// consistent base ending at the returned LSN and time.
    pub fn take_base(&self) -> Result<Base, StorageError> {
        let wal = &self.inner().wal;
        wal.sync()?;
        let segments = self.backup_segments();
        let point = *lock(&wal.durable_point);
        Ok(Base { segments, end_lsn: point.lsn, end_time_ms: point.time })
    }

    /// Whether archiving is on (compaction keeps segments not archived).
    pub fn archive_enabled(&self) -> bool {
        self.inner().wal.archive.load(Relaxed)
    }

    /// Turns archiving on or off at run time (CONFIG SET archive).
    pub fn set_archive(&self, on: bool) {
        self.inner().wal.archive.store(on, Relaxed);
    }

    /// The seal interval in ms (CONFIG SET archive-seal-interval).
    pub fn set_archive_seal_interval(&self, ms: u64) {
        self.inner().seal_interval_ms.store(ms.max(1), Relaxed);
    }

    pub fn archive_seal_interval(&self) -> u64 {
        self.inner().seal_interval_ms.load(Relaxed)
    }

    /// The number of the last segment archived.
    pub fn archived_upto(&self) -> u32 {
        self.inner().wal.archived_upto.load(Acquire)
    }
}

/// Whether compaction may remove segment `seg` (archiving off, or `seg` archived).
pub(crate) fn may_remove(wal: &crate::wal::Wal, seg: u32) -> bool {
    !wal.archive.load(Relaxed) || seg <= wal.archived_upto.load(Acquire)
}

