//! `/metrics` in the Prometheus text exposition format 0.0.4: commands by name (calls, errors,
//! latency histograms), connections, memory, disk, log writes and fsync timings, and the
//! value cache's hit ratio. Names follow Prometheus conventions (`_total` counters, base
//! units: seconds and bytes).

use crate::metrics::{Histogram, BUCKETS_US, CLASSES, MEMCACHE_COMMANDS};
use crate::registry::registry;
use crate::managed::Managed;
use crate::server::Shared;
use std::fmt::Write;
use std::sync::atomic::Ordering::Relaxed;

struct Out(String);

impl Out {
    fn family(&mut self, name: &str, kind: &str, help: &str) {
        let _ = writeln!(self.0, "# HELP {name} {help}\n# TYPE {name} {kind}");
    }

    fn sample(&mut self, name: &str, labels: &str, value: impl std::fmt::Display) {
        if labels.is_empty() {
            let _ = writeln!(self.0, "{name} {value}");
        } else {
            let _ = writeln!(self.0, "{name}{{{labels}}} {value}");
        }
    }

    fn one(&mut self, name: &str, kind: &str, help: &str, value: impl std::fmt::Display) {
        self.family(name, kind, help);
        self.sample(name, "", value);
    }

    fn histogram(&mut self, name: &str, labels: &str, h: &Histogram) {
        let cumulative = h.cumulative();
        for (i, count) in cumulative.iter().enumerate() {
            let le = match BUCKETS_US.get(i) {
                Some(us) => format!("{}", *us as f64 / 1e6),
                None => "+Inf".to_string(),
            };
            self.sample(&format!("{name}_bucket"), &format!("{labels},le=\"{le}\""), count);
        }
        self.sample(&format!("{name}_sum"), labels, h.sum_seconds());
        self.sample(&format!("{name}_count"), labels, h.count());
    }
}

/// A label value with `\`, `"` and newlines escaped.
fn label(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

fn rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|p| p.parse::<u64>().ok()))
        .unwrap_or(0)
        * 4096
}

/// Free and total bytes of the file system holding `dir` (statvfs), if it can be asked.
fn disk_space(dir: &std::path::Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
        let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
        // SAFETY: a NUL-terminated path and a statvfs the call fills in.
        if unsafe { libc::statvfs(path.as_ptr(), &mut st) } != 0 {
            return None;
        }
        let unit = st.f_frsize as u64;
        Some((st.f_bavail as u64 * unit, st.f_blocks as u64 * unit))
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        None
    }
}

pub fn render(shared: &Shared, managed: &Managed) -> String {
    let mut out = Out(String::with_capacity(16 * 1024));
    let reg = registry();
    let stats = &shared.stats;
    let store = shared.db.stats();

    out.one("basalt_up", "gauge", "1 while the server runs.", 1);
    out.one("basalt_uptime_seconds", "gauge", "Seconds since the server started.", stats.started.elapsed().as_secs());

    // Commands: only those called at least once, so the page stays small.
    let called: Vec<usize> = (0..reg.entries.len())
        .filter(|&i| stats.commands[i].calls.load(Relaxed) + stats.commands[i].rejected_calls.load(Relaxed) > 0)
        .collect();
    out.family("basalt_commands_total", "counter", "RESP commands run, by command.");
    for &i in &called {
        out.sample("basalt_commands_total", &format!("command=\"{}\"", label(&reg.entries[i].fullname)), stats.commands[i].calls.load(Relaxed));
    }
    out.family("basalt_command_errors_total", "counter", "RESP commands that replied with an error (failed) or were refused before running (rejected).");
    for &i in &called {
        let name = label(&reg.entries[i].fullname);
        out.sample("basalt_command_errors_total", &format!("command=\"{name}\",kind=\"failed\""), stats.commands[i].failed_calls.load(Relaxed));
        out.sample("basalt_command_errors_total", &format!("command=\"{name}\",kind=\"rejected\""), stats.commands[i].rejected_calls.load(Relaxed));
    }
    out.family("basalt_command_duration_seconds", "histogram", "Time to run a RESP command (durability wait excluded), by command.");
    for &i in &called {
        let h = &managed.metrics.resp[i];
        if h.count() > 0 {
            out.histogram("basalt_command_duration_seconds", &format!("command=\"{}\"", label(&reg.entries[i].fullname)), h);
        }
    }
    out.family("basalt_command_class_duration_seconds", "histogram", "Time to run a command (RESP and memcached), by class: read, write, other. Its _count is the commands run.");
    for (i, class) in CLASSES.iter().enumerate() {
        out.histogram("basalt_command_class_duration_seconds", &format!("class=\"{class}\""), &managed.metrics.classes[i]);
    }
    out.family("basalt_memcache_command_duration_seconds", "histogram", "Time to run a memcached command, by command.");
    for (i, name) in MEMCACHE_COMMANDS.iter().enumerate() {
        let h = &managed.metrics.memcache[i];
        if h.count() > 0 {
            out.histogram("basalt_memcache_command_duration_seconds", &format!("command=\"{name}\""), h);
        }
    }

    out.one("basalt_connected_clients", "gauge", "Open client connections on every port.", managed.limits.open.load(Relaxed));
    out.one("basalt_connections_received_total", "counter", "RESP connections accepted.", stats.total_connections.load(Relaxed));
    out.family("basalt_connections_rejected_total", "counter", "Connections refused at accept or cut by a limit, by reason.");
    let l = &managed.limits;
    for (reason, n) in [
        ("allowlist", l.refused_allowlist.load(Relaxed)),
        ("maxclients", l.refused_maxclients.load(Relaxed)),
        ("idle_timeout", l.idle_closed.load(Relaxed)),
        ("output_buffer_limit", l.output_cut.load(Relaxed)),
    ] {
        out.sample("basalt_connections_rejected_total", &format!("reason=\"{reason}\""), n);
    }
    out.one("basalt_maxclients", "gauge", "The maxclients limit.", l.maxclients.load(Relaxed));
    out.one("basalt_net_input_bytes_total", "counter", "Bytes read from RESP clients.", stats.net_input_bytes.load(Relaxed));
    out.one("basalt_net_output_bytes_total", "counter", "Bytes written to RESP clients.", stats.net_output_bytes.load(Relaxed));

    out.one("basalt_memory_used_bytes", "gauge", "Bytes of keys and resident values.", store.used_memory);
    out.one("basalt_memory_max_bytes", "gauge", "The maxmemory bound (0: none).", store.maxmemory);
    out.one("basalt_process_resident_memory_bytes", "gauge", "Resident set size of the process.", rss_bytes());
    out.one("basalt_keys", "gauge", "Keys in the store.", store.keys);
    out.one("basalt_keys_with_expiry", "gauge", "Keys with an expiry.", store.expires);
    out.one("basalt_expired_keys_total", "counter", "Keys removed because they expired.", store.expired_keys);
    out.one("basalt_evicted_values_total", "counter", "Values dropped from memory to honour maxmemory (they stay on disk).", store.evicted_values);

    out.one("basalt_disk_log_bytes", "gauge", "Bytes the write-ahead log takes on disk, with the active segment's preallocated space and the spare segment file.", store.log_disk_bytes);
    out.one("basalt_disk_live_log_bytes", "gauge", "Bytes of the log that are the latest copy of a key.", store.live_log_bytes);
    out.one("basalt_disk_log_segments", "gauge", "Log segment files.", store.log_segments);
    if let Some((free, total)) = disk_space(&shared.config().dir) {
        out.one("basalt_disk_free_bytes", "gauge", "Bytes free for the server on the data directory's file system.", free);
        out.one("basalt_disk_total_bytes", "gauge", "Size of the data directory's file system.", total);
    }
    out.one("basalt_log_writes_total", "counter", "Writes of the log buffer to the file.", store.log_writes);
    out.one("basalt_log_compactions_total", "counter", "Compactions of old log segments.", store.compactions);
    out.one("basalt_fsyncs_total", "counter", "fsync calls on the log.", store.fsyncs);
    out.family("basalt_fsync_duration_seconds", "histogram", "Time of each fsync of the log.");
    let mut total = 0;
    for (i, n) in store.fsync_buckets.iter().enumerate() {
        total += n;
        let le = match basalt_storage::FSYNC_BUCKETS_US.get(i) {
            Some(us) => format!("{}", *us as f64 / 1e6),
            None => "+Inf".to_string(),
        };
        out.sample("basalt_fsync_duration_seconds_bucket", &format!("le=\"{le}\""), total);
    }
    out.sample("basalt_fsync_duration_seconds_sum", "", store.fsync_ns_total as f64 / 1e9);
    out.sample("basalt_fsync_duration_seconds_count", "", store.fsyncs);
    out.one("basalt_fsync_duration_avg_seconds", "gauge", "Mean fsync time.", store.fsync_avg_us as f64 / 1e6);
    out.one("basalt_fsync_duration_last_seconds", "gauge", "Last fsync time.", store.fsync_last_us as f64 / 1e6);
    out.one("basalt_fsync_duration_max_seconds", "gauge", "Longest fsync time.", store.fsync_max_us as f64 / 1e6);
    out.one("basalt_storage_poisoned", "gauge", "1 once a log write or fsync failed (writes refused).", u8::from(store.poisoned));

    out.one("basalt_keyspace_hits_total", "counter", "Reads that found their key.", store.keyspace_hits);
    out.one("basalt_keyspace_misses_total", "counter", "Reads that did not find their key.", store.keyspace_misses);
    out.one("basalt_cache_hits_total", "counter", "Values served from memory.", store.cache_hits);
    out.one("basalt_cache_misses_total", "counter", "Values read back from disk (cold reads: data larger than memory).", store.cache_misses);
    let lookups = store.cache_hits + store.cache_misses;
    let ratio = if lookups == 0 { 1.0 } else { store.cache_hits as f64 / lookups as f64 };
    out.one("basalt_cache_hit_ratio", "gauge", "Share of value reads served from memory (1 before any read).", ratio);
    out.one("basalt_slowlog_length", "gauge", "Entries in the slow log.", shared.slowlog.len());
    out.one("basalt_log_appended_lsn", "gauge", "Log sequence number of the last write appended (the position a replica's offset is compared with).", store.appended_lsn);
    out.one("basalt_log_durable_lsn", "gauge", "Log sequence number known to be on disk.", store.durable_lsn);
    // Replication (issue 15), from the same source as INFO replication. The API's
    // "replication lag" series reads max(basalt_replication_lag_seconds).
    let repl = &shared.repl;
    let offset = repl.offset();
    out.one("basalt_replication_is_primary", "gauge", "1 on a primary, 0 on a replica.", u8::from(!repl.is_replica()));
    out.one("basalt_replication_offset", "gauge", "Bytes of the replication stream this node holds (master_repl_offset).", offset);
    let peers = crate::replication::info::peers(repl, offset);
    out.one("basalt_replication_connected_replicas", "gauge", "Replicas connected to this primary.", peers.len());
    if !peers.is_empty() {
        out.family("basalt_replication_replica_offset", "gauge", "Offset each replica acknowledged (its log holds the stream up to it).");
        for p in &peers {
            out.sample("basalt_replication_replica_offset", &format!("replica=\"{}:{}\"", label(&p.ip), p.port), p.offset);
        }
        out.family("basalt_replication_lag_bytes", "gauge", "Bytes of the stream a replica does not hold yet.");
        for p in &peers {
            out.sample("basalt_replication_lag_bytes", &format!("replica=\"{}:{}\"", label(&p.ip), p.port), p.lag_bytes);
        }
        out.family("basalt_replication_lag_seconds", "gauge", "Seconds since a replica last acknowledged.");
        for p in &peers {
            out.sample("basalt_replication_lag_seconds", &format!("replica=\"{}:{}\"", label(&p.ip), p.port), p.lag_secs);
        }
    }
    if let Some((up, last_io)) = crate::replication::info::link(repl) {
        out.one("basalt_replication_link_up", "gauge", "On a replica: 1 while the link to its primary is up.", u8::from(up));
        out.one("basalt_replication_last_io_seconds", "gauge", "On a replica: seconds since its primary last sent anything.", last_io.min(1 << 31));
    }
    out.0
}
