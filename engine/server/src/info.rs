//! The text of INFO: sections as Redis 7 lays them out (`# Name`, `field:value` lines, a blank
//! line between sections), filled from the server's counters and the store's figures.

use crate::cmd::hello::REDIS_VERSION;
use crate::registry::registry;
use crate::server::Shared;
use std::fmt::Write;
use std::sync::atomic::Ordering::Relaxed;

const DEFAULT_SECTIONS: &[&str] =
    &["server", "clients", "memory", "persistence", "stats", "replication", "cpu", "keyspace"];
const ALL_SECTIONS: &[&str] = &[
    "server",
    "clients",
    "memory",
    "persistence",
    "stats",
    "replication",
    "cpu",
    "commandstats",
    "keyspace",
    "security",
];

/// Which sections the arguments ask for (none: the default set).
pub fn sections_for(args: &[String]) -> Vec<&'static str> {
    if args.is_empty() {
        return DEFAULT_SECTIONS.to_vec();
    }
    let mut wanted = Vec::new();
    for arg in args {
        let arg = arg.to_ascii_lowercase();
        let list: &[&'static str] = match arg.as_str() {
            "all" | "everything" => ALL_SECTIONS,
            "default" => DEFAULT_SECTIONS,
            other => match ALL_SECTIONS.iter().find(|s| **s == other) {
                Some(s) => std::slice::from_ref(s),
                None => &[],
            },
        };
        for s in list {
            if !wanted.contains(s) {
                wanted.push(*s);
            }
        }
    }
    // Keep Redis' order whatever order they were asked in.
    ALL_SECTIONS.iter().copied().filter(|s| wanted.contains(s)).collect()
}

fn human_bytes(n: u64) -> String {
    let units = ["B", "K", "M", "G", "T"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < units.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n}B")
    } else {
        format!("{value:.2}{}", units[unit])
    }
}

/// Resident set size from /proc (0 where there is none).
fn rss_bytes() -> u64 {
    let pages = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|p| p.parse::<u64>().ok()))
        .unwrap_or(0);
    pages * 4096
}

/// User and system CPU seconds from /proc (clock ticks at the usual 100 Hz).
fn cpu_seconds() -> (f64, f64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name, which is in parentheses and may contain spaces.
    let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0) / 100.0;
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after the name.
    (ticks(11), ticks(12))
}

pub fn render(shared: &Shared, sections: &[&str]) -> String {
    let mut out = String::with_capacity(4096);
    for (i, section) in sections.iter().enumerate() {
        if i > 0 {
            out.push_str("\r\n");
        }
        render_section(shared, section, &mut out);
    }
    out
}

fn line(out: &mut String, name: &str, value: impl std::fmt::Display) {
    let _ = write!(out, "{name}:{value}\r\n");
}

fn render_section(shared: &Shared, section: &str, out: &mut String) {
    let stats = &shared.stats;
    let config = shared.config();
    match section {
        "server" => {
            out.push_str("# Server\r\n");
            line(out, "redis_version", REDIS_VERSION);
            line(out, "basalt_version", env!("CARGO_PKG_VERSION"));
            line(out, "redis_mode", "standalone");
            line(out, "os", std::env::consts::OS);
            line(out, "arch_bits", usize::BITS);
            line(out, "multiplexing_api", "tokio");
            line(out, "process_id", std::process::id());
            line(out, "run_id", &shared.run_id);
            line(out, "tcp_port", shared.local_addr.port());
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
            line(out, "server_time_usec", now.as_micros());
            let uptime = stats.started.elapsed().as_secs();
            line(out, "uptime_in_seconds", uptime);
            line(out, "uptime_in_days", uptime / 86400);
            line(out, "io_threads_active", 1);
            line(out, "threads", config.threads);
            let exe = std::env::current_exe().map(|p| p.display().to_string()).unwrap_or_default();
            line(out, "executable", exe);
            let file = config.config_file.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
            line(out, "config_file", file);
        }
        "clients" => {
            out.push_str("# Clients\r\n");
            line(out, "connected_clients", shared.clients.count());
            let maxclients = shared.managed.get().map(|s| s.limits.maxclients.load(Relaxed)).unwrap_or(10000);
            line(out, "maxclients", maxclients);
            line(out, "blocked_clients", crate::blocking::blocked_count());
        }
        "memory" => {
            let db = shared.db.stats();
            out.push_str("# Memory\r\n");
            line(out, "used_memory", db.used_memory);
            line(out, "used_memory_human", human_bytes(db.used_memory));
            let rss = rss_bytes();
            line(out, "used_memory_rss", rss);
            line(out, "used_memory_rss_human", human_bytes(rss));
            line(out, "maxmemory", db.maxmemory);
            line(out, "maxmemory_human", human_bytes(db.maxmemory));
            // Keys stay; cold values move to disk and come back on demand.
            line(out, "maxmemory_policy", "values-to-disk");
            line(out, "cache_hits", db.cache_hits);
            line(out, "cache_misses", db.cache_misses);
            line(out, "evicted_values", db.evicted_values);
        }
        "persistence" => {
            let db = shared.db.stats();
            out.push_str("# Persistence\r\n");
            line(out, "loading", 0);
            line(out, "aof_enabled", 1);
            line(out, "appendfsync", db.fsync);
            line(out, "aof_last_write_status", if db.poisoned { "err" } else { "ok" });
            line(out, "wal_bytes", db.log_bytes);
            line(out, "wal_disk_bytes", db.log_disk_bytes);
            line(out, "wal_live_bytes", db.live_log_bytes);
            line(out, "wal_segments", db.log_segments);
            line(out, "wal_writes", db.log_writes);
            line(out, "wal_compactions", db.compactions);
            line(out, "wal_compaction_pending", u8::from(db.compaction_pending));
            line(out, "wal_appended_lsn", db.appended_lsn);
            line(out, "wal_written_lsn", db.written_lsn);
            line(out, "wal_durable_lsn", db.durable_lsn);
            line(out, "wal_fsyncs", db.fsyncs);
            line(out, "wal_fsync_avg_usec", db.fsync_avg_us);
            line(out, "wal_fsync_last_usec", db.fsync_last_us);
            line(out, "wal_fsync_max_usec", db.fsync_max_us);
            line(out, "wal_last_fsync_unix_ms", db.last_fsync_unix_ms);
            line(out, "wal_last_error", db.last_fsync_error.as_deref().unwrap_or(""));
            // Backups (issue 44): the log format, archiving, the durable point a backup reads to.
            line(out, "wal_format", basalt_storage::LOG_FORMAT);
            line(out, "wal_durable_time_ms", db.durable_time_ms);
            line(out, "archive_enabled", u8::from(db.archive));
            line(out, "archive_seal_interval_ms", db.archive_seal_interval_ms);
            line(out, "archived_upto_segment", db.archived_upto);
            // What a recovery to a point in time (recovery.target) did at this start.
            match db.recovery {
                None => line(out, "recovery_target", "none"),
                Some(r) => {
                    let opt = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
                    line(out, "recovery_target", "applied");
                    line(out, "recovery_target_time_ms", opt(r.target.time_ms));
                    line(out, "recovery_target_lsn", opt(r.target.lsn));
                    line(out, "recovery_stopped_lsn", r.lsn);
                    line(out, "recovery_stopped_time_ms", r.time_ms);
                    line(out, "recovery_cut", u8::from(r.past_target));
                }
            }
        }
        "stats" => {
            let db = shared.db.stats();
            out.push_str("# Stats\r\n");
            line(out, "total_connections_received", stats.total_connections.load(Relaxed));
            line(out, "total_commands_processed", stats.total_commands.load(Relaxed));
            line(out, "instantaneous_ops_per_sec", stats.ops_per_sec.load(Relaxed));
            line(out, "total_net_input_bytes", stats.net_input_bytes.load(Relaxed));
            line(out, "total_net_output_bytes", stats.net_output_bytes.load(Relaxed));
            line(out, "rejected_connections", stats.rejected_connections.load(Relaxed));
            line(out, "expired_keys", db.expired_keys);
            line(out, "evicted_keys", 0);
            line(out, "keyspace_hits", db.keyspace_hits);
            line(out, "keyspace_misses", db.keyspace_misses);
            line(out, "total_error_replies", stats.error_replies.load(Relaxed));
            line(out, "unknown_commands", stats.unknown_commands.load(Relaxed));
        }
        "replication" => {
            out.push_str("# Replication\r\n");
            crate::replication::info::section(&shared.repl, out);
        }
        "cpu" => {
            let (user, sys) = cpu_seconds();
            out.push_str("# CPU\r\n");
            line(out, "used_cpu_sys", format!("{sys:.6}"));
            line(out, "used_cpu_user", format!("{user:.6}"));
        }
        "commandstats" => {
            out.push_str("# Commandstats\r\n");
            for (entry, stat) in registry().entries.iter().zip(&stats.commands) {
                let calls = stat.calls.load(Relaxed);
                let rejected = stat.rejected_calls.load(Relaxed);
                let failed = stat.failed_calls.load(Relaxed);
                if calls == 0 && rejected == 0 && failed == 0 {
                    continue;
                }
                let usec = stat.usec.load(Relaxed);
                let per_call = if calls == 0 { 0.0 } else { usec as f64 / calls as f64 };
                let _ = write!(
                    out,
                    "cmdstat_{}:calls={calls},usec={usec},usec_per_call={per_call:.2},rejected_calls={rejected},failed_calls={failed}\r\n",
                    entry.fullname
                );
            }
            // The memcached port's requests (a multi-get is one `get`), as `memcached|<command>`:
            // one place to count every request the engine served, whichever protocol.
            if let Some(managed) = shared.managed.get() {
                for (name, histogram) in crate::metrics::MEMCACHE_COMMANDS.iter().zip(&managed.metrics.memcache) {
                    let calls = histogram.count();
                    if calls == 0 {
                        continue;
                    }
                    let usec = (histogram.sum_seconds() * 1e6).round() as u64;
                    let per_call = usec as f64 / calls as f64;
                    let _ = write!(
                        out,
                        "cmdstat_memcached|{name}:calls={calls},usec={usec},usec_per_call={per_call:.2},rejected_calls=0,failed_calls=0\r\n"
                    );
                }
            }
        }
        "security" => {
            if let Some(managed) = shared.managed.get() {
                out.push_str(&managed.info(&config));
            }
        }
        "keyspace" => {
            out.push_str("# Keyspace\r\n");
            for index in 0..shared.db.databases() {
                let keyspace = shared.db.keyspace(index);
                let keys = keyspace.len();
                if keys > 0 {
                    let _ = write!(out, "db{index}:keys={keys},expires={},avg_ttl=0\r\n", keyspace.expires());
                }
            }
        }
        _ => {}
    }
}
