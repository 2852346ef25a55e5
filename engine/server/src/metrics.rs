//! Latency histograms per command (RESP and memcached), the figures `/metrics` exports that
//! `INFO` has no room for. Fixed buckets, one atomic counter each: recording is a few relaxed
//! adds, never a lock.

use crate::registry::registry;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Upper bounds of the buckets, in microseconds (Prometheus `le`, shown in seconds).
pub const BUCKETS_US: [u64; 14] = [10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 100_000, 250_000, 1_000_000];

pub struct Histogram {
    /// Counts per bucket (not cumulative); the last slot is `+Inf`.
    buckets: [AtomicU64; BUCKETS_US.len() + 1],
    sum_us: AtomicU64,
    count: AtomicU64,
}

impl Default for Histogram {
    fn default() -> Histogram {
        Histogram { buckets: std::array::from_fn(|_| AtomicU64::new(0)), sum_us: AtomicU64::new(0), count: AtomicU64::new(0) }
    }
}

impl Histogram {
    pub fn observe(&self, us: u64) {
        let slot = BUCKETS_US.iter().position(|&b| us <= b).unwrap_or(BUCKETS_US.len());
        self.buckets[slot].fetch_add(1, Relaxed);
        self.sum_us.fetch_add(us, Relaxed);
        self.count.fetch_add(1, Relaxed);
    }

    pub fn count(&self) -> u64 {
        self.count.load(Relaxed)
    }

    /// Cumulative counts per bucket bound (the last one is `+Inf` and equals the count).
    pub fn cumulative(&self) -> Vec<u64> {
        let mut total = 0;
        self.buckets
            .iter()
            .map(|b| {
                total += b.load(Relaxed);
                total
            })
            .collect()
    }

    pub fn sum_seconds(&self) -> f64 {
        self.sum_us.load(Relaxed) as f64 / 1e6
    }
}

/// Histograms of the RESP commands (by registry index), of the memcached commands, and of
/// every command by class (what a chart of read and write latency needs: one series each).
pub struct Metrics {
    pub resp: Vec<Histogram>,
    pub memcache: Vec<Histogram>,
    pub classes: [Histogram; CLASSES.len()],
}

/// Command classes, in the order of `Metrics::classes`: `read` (table flag `readonly`, memcached
/// get/gets), `write` (flag `write`, memcached storage commands), `other` (the rest).
pub const CLASSES: [&str; 3] = ["read", "write", "other"];

fn class_of(flags: u32) -> usize {
    if flags & crate::table::flag::READONLY != 0 {
        0
    } else if flags & crate::table::flag::WRITE != 0 {
        1
    } else {
        2
    }
}

/// The memcached commands that read (the others before `flush_all` write).
const MEMCACHE_READS: &[&str] = &["get", "gets"];
const MEMCACHE_WRITES: &[&str] = &["gat", "gats", "set", "add", "replace", "append", "prepend", "cas", "delete", "incr", "decr", "touch", "flush_all"];

/// The memcached commands, in the order of `Metrics::memcache`.
pub const MEMCACHE_COMMANDS: &[&str] = &[
    "get", "gets", "gat", "gats", "set", "add", "replace", "append", "prepend", "cas", "delete", "incr", "decr",
    "touch", "flush_all", "version", "stats", "verbosity", "quit",
];

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics {
            resp: (0..registry().entries.len()).map(|_| Histogram::default()).collect(),
            memcache: MEMCACHE_COMMANDS.iter().map(|_| Histogram::default()).collect(),
            classes: std::array::from_fn(|_| Histogram::default()),
        }
    }
}

impl Metrics {
    /// One RESP command of table flags `flags` that ran `us` microseconds.
    pub fn observe_resp(&self, index: usize, us: u64, flags: u32) {
        if let Some(h) = self.resp.get(index) {
            h.observe(us);
        }
        self.classes[class_of(flags)].observe(us);
    }

    pub fn observe_memcache(&self, command: &str, us: u64) {
        if let Some(i) = MEMCACHE_COMMANDS.iter().position(|c| *c == command) {
            self.memcache[i].observe(us);
        }
        let class = if MEMCACHE_READS.contains(&command) {
            0
        } else if MEMCACHE_WRITES.contains(&command) {
            1
        } else {
            2
        };
        self.classes[class].observe(us);
    }
}
