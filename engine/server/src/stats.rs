//! Counters behind `INFO`: per-command calls, time, rejected and failed calls (exact: a load
//! generator is checked against them), and server-wide totals.

use crate::registry::registry;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

#[derive(Default)]
pub struct CommandStat {
    pub calls: AtomicU64,
    pub usec: AtomicU64,
    /// Refused before running (arity, authentication, unknown subcommand).
    pub rejected_calls: AtomicU64,
    /// Ran and replied with an error.
    pub failed_calls: AtomicU64,
}

pub struct Stats {
    pub started: Instant,
    pub commands: Vec<CommandStat>,
    pub total_commands: AtomicU64,
    pub total_connections: AtomicU64,
    pub rejected_connections: AtomicU64,
    pub net_input_bytes: AtomicU64,
    pub net_output_bytes: AtomicU64,
    pub error_replies: AtomicU64,
    pub unknown_commands: AtomicU64,
    /// Commands per second over the last second, sampled by the server.
    pub ops_per_sec: AtomicU64,
}

impl Stats {
    pub fn new() -> Stats {
        Stats {
            started: Instant::now(),
            commands: (0..registry().entries.len()).map(|_| CommandStat::default()).collect(),
            total_commands: AtomicU64::new(0),
            total_connections: AtomicU64::new(0),
            rejected_connections: AtomicU64::new(0),
            net_input_bytes: AtomicU64::new(0),
            net_output_bytes: AtomicU64::new(0),
            error_replies: AtomicU64::new(0),
            unknown_commands: AtomicU64::new(0),
            ops_per_sec: AtomicU64::new(0),
        }
    }

    pub fn record_call(&self, index: usize, usec: u64, failed: bool) {
        let stat = &self.commands[index];
        stat.calls.fetch_add(1, Relaxed);
        stat.usec.fetch_add(usec, Relaxed);
        if failed {
            stat.failed_calls.fetch_add(1, Relaxed);
        }
    }

    pub fn record_rejected(&self, index: usize) {
        self.commands[index].rejected_calls.fetch_add(1, Relaxed);
    }

    /// CONFIG RESETSTAT: command counters and the totals of `INFO stats` start again from 0.
    pub fn reset(&self) {
        self.reset_commands();
        for counter in [
            &self.total_commands,
            &self.total_connections,
            &self.rejected_connections,
            &self.net_input_bytes,
            &self.net_output_bytes,
            &self.error_replies,
            &self.unknown_commands,
        ] {
            counter.store(0, Relaxed);
        }
    }

    /// Resets the per-command counters.
    pub fn reset_commands(&self) {
        for stat in &self.commands {
            stat.calls.store(0, Relaxed);
            stat.usec.store(0, Relaxed);
            stat.rejected_calls.store(0, Relaxed);
            stat.failed_calls.store(0, Relaxed);
        }
    }
}

/// Counts of one connection, added to the shared `Stats` once per pipeline (before its replies
/// are sent, so INFO is exact for anything a client has seen answered). Keeps the atomics off
/// the per-command path.
pub struct LocalStats {
    /// Per registry index: calls, microseconds, failed calls.
    per_command: Vec<(u64, u64, u64)>,
    touched: Vec<usize>,
    commands: u64,
    errors: u64,
}

impl LocalStats {
    pub fn new() -> LocalStats {
        LocalStats { per_command: vec![(0, 0, 0); registry().entries.len()], touched: Vec::new(), commands: 0, errors: 0 }
    }

    pub fn record_call(&mut self, index: usize, usec: u64, failed: bool) {
        let slot = &mut self.per_command[index];
        if slot.0 == 0 && slot.2 == 0 {
            self.touched.push(index);
        }
        slot.0 += 1;
        slot.1 += usec;
        slot.2 += failed as u64;
    }

    pub fn count_command(&mut self) {
        self.commands += 1;
    }

    pub fn count_error(&mut self) {
        self.errors += 1;
    }

    pub fn flush(&mut self, stats: &Stats) {
        for &index in &self.touched {
            let (calls, usec, failed) = std::mem::take(&mut self.per_command[index]);
            let stat = &stats.commands[index];
            stat.calls.fetch_add(calls, Relaxed);
            stat.usec.fetch_add(usec, Relaxed);
            if failed > 0 {
                stat.failed_calls.fetch_add(failed, Relaxed);
            }
        }
        self.touched.clear();
        if self.commands > 0 {
            stats.total_commands.fetch_add(std::mem::take(&mut self.commands), Relaxed);
        }
        if self.errors > 0 {
            stats.error_replies.fetch_add(std::mem::take(&mut self.errors), Relaxed);
        }
    }
}

impl Default for LocalStats {
    fn default() -> Self {
        LocalStats::new()
    }
}

impl Default for Stats {
    fn default() -> Self {
        Stats::new()
    }
}
