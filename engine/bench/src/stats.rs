//! Counters and latency histograms. Each thread owns its stats (no locks on the hot path);
//! a few atomics carry progress to the main thread; everything is merged after the run.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;

/// Latencies are recorded in microseconds, like memtier, up to one hour.
pub const LAT_HIGHEST_US: u64 = 3_600_000_000;

pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, LAT_HIGHEST_US, 3).expect("valid histogram bounds")
}

/// Per-second histograms are coarser (2 significant digits) to stay small.
fn new_second_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, LAT_HIGHEST_US, 2).expect("valid histogram bounds")
}

#[derive(Clone)]
pub struct OpStats {
    pub count: u64,
    pub hits: u64,
    pub misses: u64,
    pub errors: u64,
    pub bytes_rx: u64,
    pub bytes_tx: u64,
    pub lat_sum_ns: u64,
    pub lat_min_ns: u64,
    pub lat_max_ns: u64,
    pub hist: Histogram<u64>,
}

impl OpStats {
    pub fn new() -> OpStats {
        OpStats::with_histogram(new_histogram())
    }

    fn with_histogram(hist: Histogram<u64>) -> OpStats {
        OpStats {
            count: 0,
            hits: 0,
            misses: 0,
            errors: 0,
            bytes_rx: 0,
            bytes_tx: 0,
            lat_sum_ns: 0,
            lat_min_ns: u64::MAX,
            lat_max_ns: 0,
            hist,
        }
    }

    #[inline]
    fn record(&mut self, lat_ns: u64, rx: u64, tx: u64, outcome: Outcome) {
        self.count += 1;
        self.bytes_rx += rx;
        self.bytes_tx += tx;
        self.lat_sum_ns += lat_ns;
        self.lat_min_ns = self.lat_min_ns.min(lat_ns);
        self.lat_max_ns = self.lat_max_ns.max(lat_ns);
        let _ = self.hist.record(((lat_ns + 500) / 1000).clamp(1, LAT_HIGHEST_US));
        match outcome {
            Outcome::Hit => self.hits += 1,
            Outcome::Miss => self.misses += 1,
            Outcome::Error => self.errors += 1,
            Outcome::Done => {}
        }
    }

    pub fn merge(&mut self, other: &OpStats) {
        self.count += other.count;
        self.hits += other.hits;
        self.misses += other.misses;
        self.errors += other.errors;
        self.bytes_rx += other.bytes_rx;
        self.bytes_tx += other.bytes_tx;
        self.lat_sum_ns += other.lat_sum_ns;
        self.lat_min_ns = self.lat_min_ns.min(other.lat_min_ns);
        self.lat_max_ns = self.lat_max_ns.max(other.lat_max_ns);
        let _ = self.hist.add(&other.hist);
    }

    pub fn avg_latency_ms(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.lat_sum_ns as f64 / self.count as f64 / 1e6
        }
    }

    pub fn percentile_ms(&self, p: f64) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.hist.value_at_quantile(p / 100.0) as f64 / 1000.0
        }
    }
}

impl Default for OpStats {
    fn default() -> Self {
        OpStats::new()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Done,
    Hit,
    Miss,
    Error,
}

/// What the main thread reads once a second while the run goes on.
#[derive(Default)]
pub struct Progress {
    pub ops: AtomicU64,
    pub bytes: AtomicU64,
    pub lat_sum_ns: AtomicU64,
    pub errors: AtomicU64,
    pub connections_done: AtomicU64,
}

impl Progress {
    pub fn add(&self, ops: u64, bytes: u64, lat_sum_ns: u64, errors: u64) {
        self.ops.fetch_add(ops, Ordering::Relaxed);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        self.lat_sum_ns.fetch_add(lat_sum_ns, Ordering::Relaxed);
        if errors > 0 {
            self.errors.fetch_add(errors, Ordering::Relaxed);
        }
    }
}

/// Stats of one thread (or, merged, of one run), by command kind and by second.
#[derive(Clone)]
pub struct RunStats {
    pub kinds: Vec<OpStats>,
    /// Per second since the start, per kind; allocated only for kinds that saw requests.
    pub seconds: Vec<Vec<Option<OpStats>>>,
    pub start: Instant,
    pub duration: Duration,
    pub error_samples: Vec<String>,
    pub connection_errors: Vec<String>,
}

const MAX_SAMPLES: usize = 5;

impl RunStats {
    pub fn new(kinds: usize, start: Instant) -> RunStats {
        RunStats {
            kinds: (0..kinds).map(|_| OpStats::new()).collect(),
            seconds: Vec::new(),
            start,
            duration: Duration::ZERO,
            error_samples: Vec::new(),
            connection_errors: Vec::new(),
        }
    }

    #[inline]
    pub fn record(&mut self, kind: usize, now: Instant, sent: Instant, rx: u64, tx: u64, outcome: Outcome) {
        let lat_ns = now.saturating_duration_since(sent).as_nanos() as u64;
        self.kinds[kind].record(lat_ns, rx, tx, outcome);
        let sec = now.saturating_duration_since(self.start).as_secs() as usize;
        if sec >= self.seconds.len() {
            let n = self.kinds.len();
            self.seconds.resize_with(sec + 1, || vec![None; n]);
        }
        self.seconds[sec][kind]
            .get_or_insert_with(|| OpStats::with_histogram(new_second_histogram()))
            .record(lat_ns, rx, tx, outcome);
    }

    pub fn note_error_reply(&mut self, text: String) {
        if self.error_samples.len() < MAX_SAMPLES && !self.error_samples.contains(&text) {
            self.error_samples.push(text);
        }
    }

    pub fn note_connection_error(&mut self, text: String) {
        if self.connection_errors.len() < MAX_SAMPLES * 4 {
            self.connection_errors.push(text);
        }
    }

    pub fn merge(&mut self, other: &RunStats) {
        for (a, b) in self.kinds.iter_mut().zip(&other.kinds) {
            a.merge(b);
        }
        let n = self.kinds.len();
        if other.seconds.len() > self.seconds.len() {
            self.seconds.resize_with(other.seconds.len(), || vec![None; n]);
        }
        for (a, b) in self.seconds.iter_mut().zip(&other.seconds) {
            for (x, y) in a.iter_mut().zip(b) {
                if let Some(y) = y {
                    x.get_or_insert_with(|| OpStats::with_histogram(new_second_histogram())).merge(y);
                }
            }
        }
        for e in &other.error_samples {
            self.note_error_reply(e.clone());
        }
        for e in &other.connection_errors {
            self.note_connection_error(e.clone());
        }
        self.duration = self.duration.max(other.duration);
    }

    pub fn totals(&self) -> OpStats {
        let mut t = OpStats::new();
        for k in &self.kinds {
            t.merge(k);
        }
        t
    }

    pub fn error_replies(&self) -> u64 {
        self.kinds.iter().map(|k| k.errors).sum()
    }

    pub fn secs(&self) -> f64 {
        self.duration.as_secs_f64().max(1e-9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_adds_counts_and_histograms() {
        let start = Instant::now();
        let mut a = RunStats::new(2, start);
        let mut b = RunStats::new(2, start);
        a.record(0, start + Duration::from_micros(100), start, 5, 10, Outcome::Done);
        b.record(1, start + Duration::from_micros(300), start, 7, 3, Outcome::Hit);
        b.record(1, start + Duration::from_millis(1500), start, 7, 3, Outcome::Miss);
        a.merge(&b);
        let t = a.totals();
        assert_eq!(t.count, 3);
        assert_eq!(t.hits, 1);
        assert_eq!(t.misses, 1);
        assert_eq!(t.hist.len(), 3);
        assert_eq!(a.seconds.len(), 2);
        assert_eq!(a.kinds[1].percentile_ms(50.0), 0.3);
    }
}
