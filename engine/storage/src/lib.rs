//! basalt-storage: the persistent store under basalt-server.
//!
//! Every key lives in one of `Options::shards` shards (chosen by key hash), each behind its own
//! mutex, so many cores work at once. A shard maps the key to its entry (value + expiry) and to
//! where the value's latest copy sits in the write-ahead log. Values beyond `maxmemory` are
//! dropped from memory (least recently used of a random sample) and read back from the log on
//! demand: the log *is* the on-disk store (log-structured, like Bitcask), and compaction copies
//! the live records out of the oldest segment before deleting it.
//!
//! Every write appends one checksummed record (a batch is one record, so it is atomic) and
//! returns its log sequence number ([`Lsn`]). The server handles a whole pipeline, then awaits
//! [`Db::wait_durable`] for the last LSN once, then replies. Under [`Fsync::Always`] a log
//! thread writes and fsyncs whatever is pending as one group while the network threads keep
//! appending the next one; under `EverySec`/`No` the waiting connection writes the pending
//! buffer itself (one `write(2)` per pipeline) and the log thread fsyncs once a second (or never).
//! A failed write or fsync poisons the store: later writes get [`StorageError::Poisoned`].
//!
//! # Layout
//! - `db.rs`       — [`Db`]: open, flush, SWAPDB, MOVE, transactions, durability waits, stats.
//! - `keyspace.rs` — [`Keyspace`]: one logical database: read, update, batch, scan, FLUSHDB.
//! - `capture.rs`  — [`Db::atomically`]: the changes of a transaction as one log record.
//! - `watch.rs`    — WATCH: dirty flags set by every change of a watched key.
//! - `events.rs`   — [`KeyEvent`]: created/changed/removed/expired keys told to the server's hook.
//! - `slot.rs`     — [`Slot`] and [`Txn`]: what update and batch closures see and change.
//! - `value.rs`    — the value model: [`Entry`], [`Value`], [`Kind`], [`ZSet`].
//! - `delta.rs`    — [`Delta`]: element-level changes of collections, their encoding and apply.
//! - `stream.rs`   — [`Stream`]: the stream type, its value encoding and its deltas.
//! - `dump.rs`     — DUMP/RESTORE payloads: a value's encoding with a version and a CRC32.
//! - `shard.rs`    — one shard: the key map, the expiry index, memory accounting, eviction.
//! - `key.rs`      — [`Key`](key::Key): a map key, inline up to 30 bytes.
//! - `codec.rs`    — byte format of log records and of values.
//! - `wal.rs`      — the write-ahead log: segments, append buffer, group commit, waiters, poison.
//! - `recovery.rs` — replay of the log at open; a torn tail is detected by CRC and cut.
//! - `recovery_target.rs` — recovery to a point in time (`recovery.target`).
//! - `compact.rs`  — compaction of the oldest log segment.
//! - `archive.rs`  — archiving and base backups: segment list, reads, archived marks, bases.
//! - `cold_read.rs` — reading a cold value: from the page cache, or in a blocking section.
//! - `cipher.rs`   — [`Cipher`]: AES-256-GCM sealing of keys and values (encryption at rest).
//! - `at_rest.rs`  — the data dir's encryption marker and opening of sealed fields.
//! - `worker.rs`   — the background threads: log writer/fsync, expiry sweep, compaction.
//! - `stats.rs`    — [`Stats`], the figures `INFO` shows.
//! - `options.rs`, `error.rs` — [`Options`], [`Fsync`], and the one error enum [`StorageError`].
//!
//! # Log format
//! A segment file `dir/wal-<10 digit id>.log` is a sequence of records:
//! `crc32 (u32 LE) | len (u32 LE) | payload (len bytes)`, the CRC covering `len` and payload
//! and XORed with the segment's salt (`codec::salt_of` of its id): a segment's file may be a
//! compacted segment's used again, whose old records past the new ones then fail the check.
//! A segment whose first record checks unsalted was written before salts and is read so. The
//! replication stream and a full copy carry records unsalted.
//! Payload: `nops (u32)` then ops: `1 key-len key expires-ms(u64, 0 = none) value-len value`
//! (put), `2 key-len key` (delete), `3` (flush all), `4 db(u32)` (the following ops of this
//! record apply to database `db`; each record starts in database 0, so logs from before
//! databases existed read as database 0), `5 db(u32)` (flush one database), `6 a(u32) b(u32)`
//! (swap two databases), `7 key-len key body-len body` (delta: element-level changes of the
//! collection the key holds, applied in order to its value at that point of the log; body =
//! `count (u32)` then per change a tag and its fields: `1 field value` hash set, `2 field`
//! hash delete, `3 element` / `4 element` list push left / right, `5` / `6` list pop left /
//! right, `7 member` / `8 member` set add / remove, `9 score (f64 bits) member` sorted-set
//! add or new score, `10 member` sorted-set remove, `11`-`20` stream changes (entry add /
//! delete / trim, XSETID, group set / delete, consumer set / delete, pending entry set /
//! delete: see `stream.rs`); each field `len (u32) bytes`). A delta of
//! a missing key changes nothing (its earlier records were compacted into a later whole put).
//! A key's value is its last put with the delta ops after it applied (`delta::apply`, the one
//! apply of recovery, cold reads and commands); it is logged whole again when its chain of
//! delta ops outgrows it, and compaction of a segment holding any of them logs it whole.
//! A value starts with its type tag
//! (0 string, 1 hash, 2 list, 3 set, 4 zset, 6 stream: a format version byte, then the layout
//! in `stream::encode_value`). A value with memcached flags ([`Entry::flags`]
//! not 0) is prefixed by `5 flags(u32)`; values without flags, and every log written before
//! the prefix existed, carry none and read with flags 0.
//! Log format 2 (times): `8 time_ms (u64)` (the record's wall-clock time, unix ms) and
//! `9 format (u8 = 2) first_lsn (u64) time_ms (u64)` (a segment's head), each the first op of
//! its record when present. Every segment's first record carries the head, and a record
//! whose millisecond differs from the one before it a time op, so a record without either has
//! the time of the last record before it that had one; times never go back along the log.
//! The head's LSN keeps LSNs the same across restarts and compaction. A segment whose first
//! record has no head is format 1 (written before), read as before, its times unknown (0).
//! An older binary reads a format 2 record as damage: there is no going back to one.
//! With [`Options::cipher`] set, each key field is `nonce | AES-256-GCM(key) | tag` (AAD `k`)
//! and each value field `nonce | AES-256-GCM(value) | tag` (AAD = the plaintext key; the
//! flags prefix is inside, so flags are sealed with the value); the lengths count the sealed
//! bytes, and framing, expiry and CRC stay in the clear. A delta's key is sealed as a put's
//! key and its body with AAD `delta:` + plaintext key.

mod archive;
mod at_rest;
mod capture;
mod cipher;
mod codec;
mod cold_read;
mod compact;
mod db;
mod delta;
mod dump;
mod error;
mod events;
mod key;
mod keyspace;
mod options;
mod recovery;
mod recovery_target;
mod replication;
pub mod seen;
mod shard;
mod slot;
mod stats;
mod stream;
mod value;
mod wal;
mod watch;
mod worker;

pub use archive::{Base, SegmentInfo, MAX_READ};
pub use cipher::{Cipher, CipherError, SEAL_OVERHEAD};
pub use codec::LOG_FORMAT;
pub use recovery_target::{RecoveryTarget, Stopped, TARGET_FILE};
pub use cold_read::BlockingIo;
pub use db::{Db, Durable, Lsn, ScanPage};
pub use delta::{Delta, Outcome};
pub use dump::{dump, restore, DumpError, DUMP_VERSION};
pub use error::StorageError;
pub use events::{KeyEvent, KeyEventHook};
pub use replication::{record_len, LogCopy, ReplPos, StreamHook, RECORD_HEADER};
pub use keyspace::Keyspace;
pub use options::{Fsync, Options};
pub use slot::{Slot, Txn};
pub use stats::Stats;
pub use stream::{Consumer, Fields, Group, Pending, Stream, StreamDelta, StreamId, ENTRIES_READ_UNKNOWN};
pub use value::{Entry, Kind, Value, ZSet};
pub use wal::FSYNC_BUCKETS_US;
pub use watch::{collect_woken, BlockedTurns, WatchFlag, Watcher};

thread_local! {
    /// The time this thread's commands see while [`Db::with_frozen_clock`] runs (0: none).
    static FROZEN_MS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Current unix time in milliseconds (the clock expiry is measured against); inside
/// [`Db::with_frozen_clock`], the time it started at.
pub fn now_ms() -> u64 {
    let frozen = FROZEN_MS.with(std::cell::Cell::get);
    if frozen != 0 {
        return frozen;
    }
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// Sets this thread's frozen time for `f` (nested calls keep the outer time).
fn frozen_at<R>(at_ms: u64, f: impl FnOnce() -> R) -> R {
    if FROZEN_MS.with(std::cell::Cell::get) != 0 {
        return f();
    }
    struct Thaw;
    impl Drop for Thaw {
        fn drop(&mut self) {
            FROZEN_MS.with(|c| c.set(0));
        }
    }
    FROZEN_MS.with(|c| c.set(at_ms.max(1)));
    let _thaw = Thaw;
    f()
}
