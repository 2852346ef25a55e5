//! Replay of the log at open. Records are applied in order. A record that is short or fails its
//! CRC in the last two segments is a torn write from a crash (wal.rs `rotate`: a new segment
//! may be written before the one it follows is durable): the log is kept up to it, as
//! RocksDB's point-in-time recovery keeps it, and the rest is cut — that segment's tail and, in
//! the second-last, the whole last segment, whose records came after the lost ones and so
//! were never acknowledged as durable. A damaged record anywhere else is corruption and stops
//! the open, as does a gap in the segment numbers (a lost file).

use crate::at_rest::open_field;
use crate::codec::{decode_value, delta_aad, encoded_head, parse_record, segment_salt, BadRecord, Op, KEY_AAD};
use crate::delta;
use crate::key::shard_of;
use crate::error::StorageError;
use crate::options::Options;
use crate::shard::Shard;
use crate::stats::Counters;
use crate::recovery_target::{RecoveryTarget, Stopped};
use crate::wal::{lock, segment_path, sync_dir, Loc, SegMeta};
use bytes::Bytes;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::path::Path;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};

pub(crate) struct Recovered {
    pub files: BTreeMap<u32, Arc<File>>,
    /// The segment to append to, and its length.
    pub seg: u32,
    pub seg_len: u64,
    /// The segments written before salts (`codec::segment_salt` found 0): their records'
    /// CRCs are not salted (`Wal::salt`).
    pub unsalted: Vec<u32>,
    /// Records replayed.
    pub lsn: u64,
    pub log_bytes: u64,
    /// The last replication position op replayed (replicas; all-zero replid: unknown).
    pub repl_pos: Option<([u8; 40], u64)>,
    /// What each segment holds (`Wal::ended`, `LogBuf::cur`).
    pub metas: BTreeMap<u32, SegMeta>,
    /// With a recovery target (`recovery_target.rs`): where replay stopped.
    pub stopped: Option<Stopped>,
}

/// The ids of the log's segments, oldest first; removes what a crash left of a segment being
/// removed (`wal::REMOVING_SUFFIX`).
fn segment_ids(dir: &Path) -> Result<Vec<u32>, StorageError> {
    let mut ids = Vec::new();
    let rd = std::fs::read_dir(dir).map_err(|e| StorageError::io(format!("list {}", dir.display()), e))?;
    for ent in rd {
        let ent = ent.map_err(|e| StorageError::io(format!("list {}", dir.display()), e))?;
        let name = ent.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("wal-") && name.ends_with(crate::wal::REMOVING_SUFFIX) {
            // A compacted segment whose removal a crash stopped: not part of the log.
            let path = ent.path();
            std::fs::remove_file(&path).map_err(|e| StorageError::io(format!("remove {}", path.display()), e))?;
            continue;
        }
        if let Some(id) = name.strip_prefix("wal-").and_then(|s| s.strip_suffix(".log")) {
            if let Ok(id) = id.parse::<u32>() {
                ids.push(id);
            }
        }
    }
    ids.sort_unstable();
    Ok(ids)
}

fn open_segment(path: &Path, create: bool) -> Result<File, StorageError> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(create)
        .open(path)
        .map_err(|e| StorageError::io(format!("open {}", path.display()), e))
}

pub(crate) fn replay(opts: &Options, shards: &[Mutex<Shard>], c: &Counters) -> Result<Recovered, StorageError> {
    let dir = &opts.dir;
    crate::at_rest::check_dir(dir, opts.cipher.as_deref())?;
    let target = RecoveryTarget::read(dir)?;
    let mut ids = segment_ids(dir)?;
    if ids.is_empty() {
        let path = segment_path(dir, 1);
        open_segment(&path, true)?;
        sync_dir(dir)?;
        ids.push(1);
    }
    // Compaction removes only the oldest segment, so the ids run without a gap: a missing
    // segment is a lost file, and replaying the ones after it would resurrect what it deleted.
    if let Some(pair) = ids.windows(2).find(|pair| pair[1] != pair[0] + 1) {
        return Err(StorageError::Corrupt {
            path: segment_path(dir, pair[0] + 1),
            offset: 0,
            reason: format!("missing: the log goes from segment {} to segment {}", pair[0], pair[1]),
        });
    }
    let now = crate::now_ms();
    let mut lsn = 0u64;
    let mut log_bytes = 0u64;
    let mut seg_len = 0u64;
    let mut repl_pos = None;
    let mut unsalted = Vec::new();
    let mut metas = BTreeMap::new();
    // LSN and time of the last record applied.
    let mut applied = (0u64, 0u64);
    let mut past_target = false;
    // Damage is a torn write only in the last two segments (see the top of this file).
    let torn_window = ids.len().saturating_sub(2);
    let mut i = 0;
    while i < ids.len() {
        let seg = ids[i];
        let path = segment_path(dir, seg);
        let data = std::fs::read(&path).map_err(|e| StorageError::io(format!("read {}", path.display()), e))?;
        let mut pos = 0usize;
        let salt = segment_salt(&data, seg);
        if salt == 0 {
            unsalted.push(seg);
        }
        let mut meta = SegMeta::default();
        // A segment written before format 2 has no times: its records' are unknown (0).
        let mut time = 0u64;
        while pos < data.len() {
            let (ops, next) = match parse_record(&data, pos, salt) {
                Ok(r) => r,
                Err(bad) => {
                    if i < torn_window {
                        return Err(StorageError::Corrupt { path, offset: pos as u64, reason: format!("{bad:?}") });
                    }
                    for later in ids.drain(i + 1..) {
                        drop_segment(dir, later)?;
                    }
                    let kind = match bad {
                        BadRecord::Short => "short record",
                        BadRecord::Checksum => "checksum mismatch",
                        BadRecord::Malformed(m) => m,
                    };
                    // Zeros are the preallocated space of a segment the log had moved to
                    // (wal.rs `preallocate`), not damage. Other bytes are a torn write, or the
                    // old records of a file used again (`Wal::recycle`).
                    if data[pos..].iter().any(|&b| b != 0) {
                        eprintln!(
                            "basalt-storage: cutting the log tail of {} at offset {pos} ({kind}, {} bytes dropped: a torn write or, in a file used again, its old records)",
                            path.display(),
                            data.len() - pos
                        );
                    }
                    let f = open_segment(&path, false)?;
                    f.set_len(pos as u64)
                        .and_then(|_| f.sync_all())
                        .map_err(|e| StorageError::io(format!("truncate {}", path.display()), e))?;
                    break;
                }
            };
            match ops.first() {
                // The head gives the LSN of the segment's first record (it starts the log
                // after compaction removed the segments before it).
                Some(&Op::Head { format, .. }) if format > crate::codec::LOG_FORMAT => {
                    let reason = format!("written in log format {format}, newer than this binary's {}", crate::codec::LOG_FORMAT);
                    return Err(StorageError::Corrupt { path, offset: pos as u64, reason });
                }
                Some(&Op::Head { first_lsn, time_ms, .. }) => {
                    if pos == 0 && first_lsn > lsn {
                        lsn = first_lsn - 1;
                    }
                    time = time_ms;
                }
                Some(&Op::Time(t)) => time = t,
                _ => {}
            }
            lsn += 1;
            if target.as_ref().is_some_and(|t| t.is_past(lsn, time)) {
                lsn -= 1;
                crate::recovery_target::cut(dir, &path, pos as u64, &ids[i + 1..])?;
                ids.truncate(i + 1);
                past_target = true;
                break;
            }
            if let Some(p) = apply_record(opts, shards, c, Place { seg, lsn, db: 0, base: 0 }, now, &path, pos, ops)? {
                repl_pos = Some(p);
            }
            meta.add((next - pos) as u64, lsn, time);
            applied = (lsn, time);
            pos = next;
        }
        metas.insert(seg, meta);
        log_bytes += pos as u64;
        seg_len = pos as u64;
        i += 1;
        if past_target {
            break;
        }
    }
    let stopped = target.map(|target| Stopped { target, lsn: applied.0, time_ms: applied.1, past_target });
    let last = *ids.last().unwrap();
    let mut files = BTreeMap::new();
    for &seg in &ids {
        files.insert(seg, Arc::new(open_segment(&segment_path(dir, seg), false)?));
    }
    Ok(Recovered { files, seg: last, seg_len, unsalted, lsn, log_bytes, repl_pos, metas, stopped })
}

/// Removes segment `seg` whose records follow a torn one (see the top of this file).
fn drop_segment(dir: &Path, seg: u32) -> Result<(), StorageError> {
    let path = segment_path(dir, seg);
    eprintln!("basalt-storage: dropping {}: the segment before it ends in a torn write", path.display());
    std::fs::remove_file(&path).map_err(|e| StorageError::io(format!("remove {}", path.display()), e))?;
    sync_dir(dir)
}

/// Where a replayed op sits: segment, record, and the database it applies to.
pub(crate) struct Place {
    pub seg: u32,
    pub lsn: u64,
    pub db: usize,
    /// Added to the positions in the ops to get their offset in the segment (a replica parses
    /// a record received alone, so its positions start at 0; replay parses whole segments).
    pub base: u64,
}

/// Applies the ops of one record in order (replay at open, and a replica applying what its
/// primary sent, `replication.rs`: one meaning for every record kind). Returns the record's
/// replication position op, if it has one. `pos` is where the record starts, for errors.
#[allow(clippy::too_many_arguments)]
pub(crate) fn apply_record(
    opts: &Options,
    shards: &[Mutex<Shard>],
    c: &Counters,
    at: Place,
    now: u64,
    path: &Path,
    pos: usize,
    ops: Vec<Op<'_>>,
) -> Result<Option<([u8; 40], u64)>, StorageError> {
    let mut repl_pos = None;
    // Each record starts in database 0; a select op changes it for the ops after it.
    let mut db = at.db;
    for op in ops {
        let named = match op {
            Op::Select(d) | Op::FlushDb(d) => d,
            Op::SwapDb(a, b) => a.max(b),
            _ => 0,
        };
        if named >= opts.databases {
            return Err(StorageError::Corrupt {
                path: path.to_path_buf(),
                offset: pos as u64,
                reason: format!("the log names database {named}, but databases is {}", opts.databases),
            });
        }
        if let Op::Select(d) = op {
            db = d;
            continue;
        }
        if let Op::ReplPos { replid, offset } = op {
            repl_pos = replid.try_into().ok().map(|id| (id, offset));
            continue;
        }
        apply(opts, shards, c, Place { db, ..at }, now, path, op)?;
    }
    Ok(repl_pos)
}

/// Applies one op of a record to the shards: replay at open, and a replica applying what its
/// primary sent (`replication.rs`), so every record kind has one meaning.
pub(crate) fn apply(
    opts: &Options,
    shards: &[Mutex<Shard>],
    c: &Counters,
    at: Place,
    now: u64,
    path: &Path,
    op: Op<'_>,
) -> Result<(), StorageError> {
    let cipher = opts.cipher.as_deref();
    let Place { seg, lsn, db, base } = at;
    let per_db = opts.shards;
    let shard_of_key = |key: &[u8]| db * per_db + shard_of(key, per_db);
    match op {
        Op::Put { key, expires_at_ms, value, value_at, op_len } => {
            let corrupt = |reason: &str| StorageError::Corrupt {
                path: path.to_path_buf(),
                offset: value_at as u64,
                reason: reason.to_string(),
            };
            let stored_len = value.len();
            let key = open_field(cipher, KEY_AAD, key).map_err(|e| corrupt(&e))?;
            let mut shard = lock(&shards[shard_of_key(&key)]);
            if expires_at_ms.is_some_and(|t| t <= now) {
                shard.remove(c, &key);
                return Ok(());
            }
            let value = open_field(cipher, &key, value).map_err(|e| corrupt(&e))?;
            let loc = Loc { seg, off: base + value_at as u64, len: stored_len as u32, op_len: op_len as u32, lsn };
            let fits = opts.maxmemory == 0
                || c.used_memory.load(Relaxed) + (value.len() + key.len()) as u64 * 2 <= opts.maxmemory;
            if fits {
                let bytes = match value {
                    std::borrow::Cow::Borrowed(b) => Bytes::copy_from_slice(b),
                    std::borrow::Cow::Owned(v) => Bytes::from(v),
                };
                let (v, flags) = decode_value(&bytes).map_err(corrupt)?;
                let entry = crate::value::Entry { value: v, expires_at_ms, flags };
                shard.upsert(c, &key, entry, loc, now);
            } else {
                let head = encoded_head(&value).ok_or_else(|| corrupt("unknown value type"))?;
                shard.insert_cold(c, &key, head, expires_at_ms, loc);
            }
        }
        Op::Delta { key, body, body_at, op_len } => {
            let corrupt = |reason: &str| StorageError::Corrupt {
                path: path.to_path_buf(),
                offset: body_at as u64,
                reason: reason.to_string(),
            };
            let key = open_field(cipher, KEY_AAD, key).map_err(|e| corrupt(&e))?;
            let mut shard = lock(&shards[shard_of_key(&key)]);
            // A delta of a missing key (expired at replay, or its older records compacted
            // away because a later whole put of it folds this delta in) changes nothing.
            let Some(item) = shard.map.get_mut(&*key) else { return Ok(()) };
            let loc = Loc { seg, off: base + body_at as u64, len: body.len() as u32, op_len: op_len as u32, lsn };
            // A cold value is not changed here, so its growth is not known: counted whole.
            let mut change = (0, delta::UNKNOWN_GROWTH);
            if item.resident() {
                let body = open_field(cipher, &delta_aad(&key), body).map_err(|e| corrupt(&e))?;
                let body = Bytes::copy_from_slice(&body);
                change = delta::apply_encoded(&mut item.entry.value, &body).map_err(corrupt)?;
            }
            let value = std::mem::replace(&mut item.entry.value, crate::shard::placeholder());
            shard.add_delta(c, &key, value, loc, change, now);
        }
        Op::Del { key } => {
            let key = open_field(cipher, KEY_AAD, key)
                .map_err(|reason| StorageError::Corrupt { path: path.to_path_buf(), offset: 0, reason })?;
            lock(&shards[shard_of_key(&key)]).remove(c, &key);
        }
        Op::FlushAll => {
            for s in shards {
                lock(s).clear(c);
            }
        }
        Op::FlushDb(d) => {
            for s in &shards[d * per_db..(d + 1) * per_db] {
                lock(s).clear(c);
            }
        }
        Op::SwapDb(a, b) if a != b => {
            for i in 0..per_db {
                let (mut x, mut y) = (lock(&shards[a * per_db + i]), lock(&shards[b * per_db + i]));
                std::mem::swap(&mut *x, &mut *y);
            }
        }
        Op::SwapDb(..) | Op::Select(_) | Op::ReplPos { .. } | Op::Time(_) | Op::Head { .. } => {}
    }
    Ok(())
}
