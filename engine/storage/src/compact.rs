//! Compaction: once the log is large and mostly dead, the live records of the oldest segment
//! are appended again (as ordinary records, so they become durable like any write) and the
//! segment is deleted after an fsync. Only the oldest segment is compacted, so a delete record
//! never has to be kept: nothing older remains for it to hide.

use crate::at_rest::open_field;
use crate::codec::{parse_record, Op, RecordBuf, KEY_AAD};
use crate::db::Inner;
use crate::error::StorageError;
use crate::shard::{drop_chain, Item, KEY_OVERHEAD};
use crate::wal::{segment_path, Loc};
use std::sync::atomic::Ordering::{Acquire, Relaxed};

/// Whether compaction has work to do: the log is over `compact_min_bytes` and at most half of
/// it is live, what Redis's AOF rewrite waits for (`auto-aof-rewrite-min-size`,
/// `auto-aof-rewrite-percentage 100`). `INFO persistence` shows it (`wal_compaction_pending`),
/// the engine's counterpart of Redis's `aof_rewrite_in_progress`, background work a benchmark
/// waits out; it holds also while all of the log is in the segment written to (`maybe_compact`
/// ends it).
pub(crate) fn compaction_pending(inner: &Inner) -> bool {
    let log = inner.wal.stats.log_bytes.load(Relaxed);
    let live = inner.counters.live_bytes.load(Relaxed).max(0) as u64;
    log >= inner.opts.compact_min_bytes && live * 2 <= log
}

/// The oldest segment, when it is no longer the one written to: the one compaction rewrites.
fn oldest_sealed(inner: &Inner) -> Option<u32> {
    let oldest = inner.wal.files.read().unwrap_or_else(|e| e.into_inner()).keys().next().copied()?;
    (oldest < inner.wal.active_segment()).then_some(oldest)
}

/// Compacts the oldest segment if compaction is due. Returns whether it did (not while an
/// item of it waits for its transaction to be logged, nor at shutdown). `scratch` holds
/// the segment read: the caller keeps it across a run of compactions, so a write-heavy load
/// that compacts segment after segment does not map, fault in, zero and unmap a fresh 64 MB
/// buffer for each (measured: 13.5 % of the server's CPU under 4 KB writes, half of it page
/// faults), and drops it when compaction has caught up.
///
/// A mostly dead log all in the segment written to (many changes to a small live set:
/// 1,000,000 random ZADDs into one sorted set left 64 MB for 20 MB live) would wait for that
/// segment to fill: with `may_seal` the segment is ended and compacted now. The caller lets
/// it seal once per pass, so live bytes counted wrong could not make it rewrite the same
/// records again and again.
pub(crate) fn maybe_compact(inner: &Inner, scratch: &mut Vec<u8>, may_seal: bool) -> Result<bool, StorageError> {
    if !compaction_pending(inner) {
        return Ok(false);
    }
    // Archiving on: the oldest segment stays until it is archived (`archive.rs`).
    let oldest_on_disk = inner.wal.files.read().unwrap_or_else(|e| e.into_inner()).keys().next().copied();
    if oldest_on_disk.is_some_and(|seg| !crate::archive::may_remove(&inner.wal, seg)) {
        return Ok(false);
    }
    let oldest = match oldest_sealed(inner) {
        Some(oldest) => oldest,
        None if may_seal => {
            inner.wal.seal()?;
            let Some(oldest) = oldest_sealed(inner) else { return Ok(false) };
            oldest
        }
        None => return Ok(false),
    };
    let done = if index_walk_is_cheaper(inner, oldest) {
        compact_from_index(inner, oldest)?
    } else {
        compact_from_file(inner, oldest, scratch)?
    };
    if done {
        inner.wal.sync()?;
        inner.wal.remove_segment(oldest)?;
        inner.counters.compactions.fetch_add(1, Relaxed);
    }
    Ok(done)
}

/// Whether walking every key in memory costs less than reading the segment: the walk visits
/// each key's map slot (about `KEY_OVERHEAD` bytes), the read copies the whole segment and
/// looks up each of its ops. Under large values over few keys (4 KB writes over 50,000 keys)
/// a 64 MB segment holds a few thousand live values, and reading it was most of compaction's
/// cost (18 compactions read 1.15 GB to keep 13.6 MB).
fn index_walk_is_cheaper(inner: &Inner, seg: u32) -> bool {
    let keys = inner.counters.keys.load(Relaxed);
    let seg_len = inner.wal.files.read().unwrap_or_else(|e| e.into_inner()).get(&seg).and_then(|f| f.metadata().ok()).map_or(0, |m| m.len());
    keys.saturating_mul(KEY_OVERHEAD) < seg_len
}

/// Compaction writes its output out once this much is buffered, outside any shard lock. Left
/// to the next connection that waits, a compaction's megabytes made one `write(2)` of 14-29 MB
/// (about 50 ms) on that connection's runtime thread: every connection on it waited. The
/// buffer's lock is the one every append takes, so it is looked at after each shard walked,
/// or each `WRITE_OUT_BYTES` of segment read (the output is never more than the input).
const WRITE_OUT_BYTES: usize = 1 << 20;

fn write_out_if_large(inner: &Inner) -> Result<(), StorageError> {
    if inner.wal.buffered_bytes() >= WRITE_OUT_BYTES {
        inner.wal.write_out()?;
    }
    Ok(())
}

/// Logs again whole every item whose value depends on segment `seg` (the oldest, so every
/// such item's `first_seg` is `seg`), found by walking each shard under its lock. Returns
/// false if one depends on a transaction not yet logged: a later compaction finishes.
fn compact_from_index(inner: &Inner, seg: u32) -> Result<bool, StorageError> {
    let now = crate::now_ms();
    // A SWAPDB during the walk may carry items from a shard not yet walked into one already
    // walked: then it walks again (items already logged no longer depend on `seg`).
    loop {
        let swaps = inner.swaps.load(Acquire);
        for i in 0..inner.shards.len() {
            if inner.wal.shutdown.load(Acquire) {
                return Ok(false);
            }
            inner.wal.check_writable()?;
            {
                let _not_while_a_replica_applies = crate::wal::lock(&inner.wal.apply_gate);
                let db = i / inner.per_db;
                let mut shard = inner.shard(i);
                for (key, item) in shard.map.iter_mut() {
                    if item.first_seg() != seg || item.entry.is_expired(now) {
                        continue;
                    }
                    if item.pending() {
                        return Ok(false);
                    }
                    log_whole(inner, db, key, item)?;
                }
            }
            write_out_if_large(inner)?;
        }
        if inner.swaps.load(Acquire) == swaps {
            return Ok(true);
        }
    }
}

fn read_segment(path: &std::path::Path, into: &mut Vec<u8>) -> std::io::Result<()> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    into.clear();
    into.reserve(file.metadata()?.len() as usize);
    file.read_to_end(into)?;
    Ok(())
}

/// Reads segment `seg` and logs again the items its ops are live for. Returns false if one
/// depends on a transaction not yet logged.
fn compact_from_file(inner: &Inner, seg: u32, scratch: &mut Vec<u8>) -> Result<bool, StorageError> {
    let path = segment_path(inner.wal.dir(), seg);
    read_segment(&path, scratch).map_err(|e| StorageError::io(format!("read {}", path.display()), e))?;
    let data: &[u8] = scratch;
    let salt = inner.wal.salt(seg);
    let now = crate::now_ms();
    let mut pos = 0;
    let mut looked_at = 0;
    while pos < data.len() {
        if inner.wal.shutdown.load(Acquire) {
            return Ok(false);
        }
        let (ops, next) = parse_record(data, pos, salt).map_err(|bad| StorageError::Corrupt {
            path: path.clone(),
            offset: pos as u64,
            reason: format!("{bad:?}"),
        })?;
        // Each record starts in database 0 (RecordBuf::in_db); a select op changes it.
        let mut db_of_op = 0;
        for op in ops {
            let (stored_key, put) = match op {
                Op::Put { key, value, value_at, .. } => (key, Some((value, value_at))),
                Op::Delta { key, .. } => (key, None),
                Op::Select(db) => {
                    db_of_op = db;
                    continue;
                }
                _ => continue,
            };
            inner.wal.check_writable()?;
            let _not_while_a_replica_applies = crate::wal::lock(&inner.wal.apply_gate);
            // Sealed keys are opened to find the item; key and value are copied as stored.
            let key = open_field(inner.opts.cipher.as_deref(), KEY_AAD, stored_key)
                .map_err(|reason| StorageError::Corrupt { path: path.clone(), offset: pos as u64, reason })?;
            let op = Found { seg, stored_key, key: &key, put, now };
            // The item is looked for in the database the record names, then in every other
            // that may hold keys: SWAPDB moves items without rewriting their records (MOVE
            // rewrites them). A put's record is one item's value, so the look ends when that
            // item is found; a delta op may be the one op in this segment of items of the same
            // key in several databases, so every one is folded. A SWAPDB while it looks may
            // carry an item past it: then it looks again.
            loop {
                let swaps = inner.swaps.load(Acquire);
                let others = (0..inner.databases).filter(|&db| db != db_of_op && inner.in_use[db].load(Acquire));
                let mut put_copied = false;
                for db in std::iter::once(db_of_op).chain(others) {
                    match copy_if_live(inner, db, &op)? {
                        Outcome::NotHere | Outcome::Folded => {}
                        Outcome::PutCopied => {
                            put_copied = true;
                            break;
                        }
                        // One in a transaction not yet logged waits for a later compaction.
                        Outcome::Pending => return Ok(false),
                    }
                }
                if put_copied || inner.swaps.load(Acquire) == swaps {
                    break;
                }
            }
        }
        if next - looked_at >= WRITE_OUT_BYTES {
            write_out_if_large(inner)?;
            looked_at = next;
        }
        pos = next;
    }
    Ok(true)
}

/// One op of the segment being compacted, as `copy_if_live` looks for its item.
struct Found<'a> {
    seg: u32,
    stored_key: &'a [u8],
    key: &'a [u8],
    /// A put op: its value as stored, and where that lies in the segment.
    put: Option<(&'a [u8], usize)>,
    now: u64,
}

enum Outcome {
    /// No live item of database `db` depends on this op.
    NotHere,
    /// The op is the item's whole value, copied as stored: no other item can depend on it.
    PutCopied,
    /// The item depended on ops of this segment and was logged whole.
    Folded,
    /// The item depends on a transaction record not yet logged.
    Pending,
}

/// Appends again the value of database `db`'s item that this op is live for, if there is one.
fn copy_if_live(inner: &Inner, db: usize, op: &Found<'_>) -> Result<Outcome, StorageError> {
    let mut shard = inner.shard(inner.shard_index(db, op.key));
    let Some(item) = shard.map.get_mut(op.key) else { return Ok(Outcome::NotHere) };
    if item.entry.is_expired(op.now) || item.first_seg() != op.seg {
        return Ok(Outcome::NotHere);
    }
    if item.chain.is_empty() {
        // A value logged whole is copied as stored, when this op is its record.
        match op.put {
            Some((value, value_at)) if item.loc.off == value_at as u64 => {
                let mut rec = RecordBuf::new();
                rec.in_db(db);
                rec.put_stored(op.stored_key, item.entry.expires_at_ms, value);
                relocate(inner, item, rec);
                Ok(Outcome::PutCopied)
            }
            _ => Ok(Outcome::NotHere),
        }
    } else {
        // A value made of a put and delta ops, some in this segment: logged whole (folded)
        // after them, so the ops of this segment are no longer needed.
        if item.pending() {
            return Ok(Outcome::Pending);
        }
        log_whole(inner, db, op.key, item)?;
        Ok(Outcome::Folded)
    }
}

/// Logs database `db`'s item whole, from memory or read back from the log, in place of the
/// records it depended on.
fn log_whole(inner: &Inner, db: usize, key: &[u8], item: &mut Item) -> Result<(), StorageError> {
    let mut rec = RecordBuf::new();
    rec.in_db(db);
    if item.resident() {
        rec.put(inner.opts.cipher.as_deref(), key, item.entry.expires_at_ms, &item.entry.value, item.entry.flags);
    } else {
        let (value, flags) = inner.load(key, &item.loc, &item.chain)?;
        rec.put(inner.opts.cipher.as_deref(), key, item.entry.expires_at_ms, &value, flags);
    }
    relocate(inner, item, rec);
    Ok(())
}

/// Appends `rec`, the item's one put, and makes it where the item's value is.
fn relocate(inner: &Inner, item: &mut Item, mut rec: RecordBuf) {
    rec.finish();
    let (lsn, new_seg, off) = inner.wal.append(&rec);
    let (value_at, len, op_len) = rec.puts[0];
    let loc = Loc { seg: new_seg, off: off + value_at as u64, len: len as u32, op_len: op_len as u32, lsn };
    inner.counters.live_bytes.fetch_add(op_len as i64 - item.loc.op_len as i64, Relaxed);
    drop_chain(&inner.counters, &mut item.chain);
    item.loc = loc;
}
