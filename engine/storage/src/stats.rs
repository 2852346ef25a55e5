//! The figures `INFO` shows.

use std::sync::atomic::{AtomicI64, AtomicU64};

/// Counters shared by all shards (what reads find is counted per shard: `shard::ReadCounts`).
#[derive(Default)]
pub(crate) struct Counters {
    pub keys: AtomicU64,
    pub expires: AtomicU64,
    pub used_memory: AtomicU64,
    pub live_bytes: AtomicI64,
    pub expired_keys: AtomicU64,
    pub evicted_values: AtomicU64,
    pub compactions: AtomicU64,
    /// Values in memory (the shards' resident lists): eviction stops when none is left.
    pub resident_values: AtomicU64,
}

/// A snapshot of the store's figures.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Stats {
    /// Keys, including expired ones not yet swept.
    pub keys: u64,
    /// Keys with an expiry.
    pub expires: u64,
    /// Approximate bytes of keys plus resident values.
    pub used_memory: u64,
    pub maxmemory: u64,
    /// Keys found / not found by reads and updates.
    pub keyspace_hits: u64,
    pub keyspace_misses: u64,
    /// Values served from memory / read back from the log.
    pub cache_hits: u64,
    pub cache_misses: u64,
    /// Values dropped from memory to honour `maxmemory`.
    pub evicted_values: u64,
    pub expired_keys: u64,
    pub fsync: &'static str,
    pub log_bytes: u64,
    /// Bytes the log takes on disk: `log_bytes` plus the active segment's preallocated space and
    /// the spare segment file (wal.rs `recycle`).
    pub log_disk_bytes: u64,
    /// Bytes of the log that are the latest copy of a key.
    pub live_log_bytes: u64,
    pub log_segments: u64,
    pub log_writes: u64,
    pub compactions: u64,
    /// Compaction has work to do now (see compact::compaction_pending).
    pub compaction_pending: bool,
    pub appended_lsn: u64,
    pub written_lsn: u64,
    pub durable_lsn: u64,
    pub fsyncs: u64,
    pub fsync_avg_us: u64,
    pub fsync_last_us: u64,
    pub fsync_max_us: u64,
    /// fsyncs per bucket of `FSYNC_BUCKETS_US` (not cumulative; the last one is +Inf).
    pub fsync_buckets: Vec<u64>,
    pub fsync_ns_total: u64,
    pub last_fsync_unix_ms: u64,
    /// The write or fsync failure that poisoned the store, if any.
    pub last_fsync_error: Option<String>,
    pub poisoned: bool,
    /// The durable point (`archive.rs`): LSN and time (unix ms) of its last record.
    pub durable_time_ms: u64,
    /// Archiving: on, the last segment archived, the seal interval.
    pub archive: bool,
    pub archived_upto: u32,
    pub archive_seal_interval_ms: u64,
    /// The recovery to a target at open, if there was one.
    pub recovery: Option<crate::recovery_target::Stopped>,
}
