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

/// Histograms of the RESP commands (by registry index) and of the memcached commands.
pub struct Metrics {
    pub resp: Vec<Histogram>,
    pub memcache: Vec<Histogram>,
}

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
        }
    }
}

impl Metrics {
    pub fn observe_resp(&self, index: usize, us: u64) {
        if let Some(h) = self.resp.get(index) {
            h.observe(us);
        }
    }

    pub fn observe_memcache(&self, command: &str, us: u64) {
        if let Some(i) = MEMCACHE_COMMANDS.iter().position(|c| *c == command) {
            self.memcache[i].observe(us);
        }
    }
}
