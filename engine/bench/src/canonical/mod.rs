//! `basalt-bench canonical`: RethinkDB's canonical workload (the methodology of its
//! performance report) over the memcached text protocol. Tables and JSON in memtier's layout,
//! rows Reads / Updates / Inserts / Deletes; the JSON's "canonical" block says which memcached
//! command each row sent (get / set / add / delete), so a server's own counters can be held
//! against it, and how many keys the batched reads asked for and got.

pub mod args;
pub mod client;

use std::fmt::Write as _;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::json;

use crate::cli::Protocol;
use crate::net::Connector;
use crate::report::{self, KindInfo, ReportSpec};
use crate::runner::{self, LocalTask, RunPlan, TaskFactory};
use args::Canonical;
use client::{ClientCtx, KeyCounts, DELETE, INSERT, READ, UPDATE};

pub const KINDS: [KindInfo; 4] = [
    KindInfo { table: "Reads", hist: "GET", has_hits: true, unused: false },
    KindInfo { table: "Updates", hist: "SET", has_hits: false, unused: false },
    KindInfo { table: "Inserts", hist: "ADD", has_hits: false, unused: false },
    KindInfo { table: "Deletes", hist: "DELETE", has_hits: false, unused: false },
];

/// Entry point; `argv[0]` is "canonical". Returns the process exit code.
pub fn main(argv: Vec<String>) -> i32 {
    let cfg = match args::parse(&argv) {
        Ok(a) => match Canonical::from_args(a) {
            Ok(c) => Arc::new(c),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        },
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let connector = match Connector::new(&cfg.server, cfg.port, None, Protocol::MemcacheText, cfg.auth.clone(), None, Duration::from_secs(cfg.timeout_secs)) {
        Ok(c) => Arc::new(c),
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let keys = Arc::new(KeyCounts::default());
    let plan = RunPlan {
        label: if cfg.load { "LOAD".into() } else { "RUN #1".into() },
        threads: cfg.threads,
        kinds: KINDS.len(),
        total_ops: if cfg.load { Some(cfg.keys) } else { cfg.requests.map(|n| n * cfg.clients as u64) },
        test_time: if cfg.load { None } else { cfg.test_time.map(Duration::from_secs) },
        stall_timeout: Duration::from_secs(cfg.timeout_secs),
    };
    let (cfg2, conn2, keys2) = (cfg.clone(), connector.clone(), keys.clone());
    let factory: TaskFactory = Arc::new(move |ctx| {
        (0..cfg2.clients as u64)
            .filter(|i| i % cfg2.threads as u64 == ctx.thread as u64)
            .map(|i| {
                Box::pin(client::run_client(ClientCtx {
                    cfg: cfg2.clone(),
                    connector: conn2.clone(),
                    conn_index: i,
                    stats: ctx.stats.clone(),
                    progress: ctx.progress.clone(),
                    stop: ctx.stop.clone(),
                    keys: keys2.clone(),
                })) as LocalTask
            })
            .collect()
    });
    let start_ms = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0);
    let stats = runner::run(&plan, factory);
    let spec = ReportSpec { kinds: &KINDS, percentiles: &cfg.percentiles };
    let mut out = report::table("ALL STATS", &stats, &spec);
    if !cfg.hide_histogram {
        out.push_str(&report::histogram_text(&stats, &spec));
    }
    let failures = report::failures(&stats);
    let (asked, returned) = (keys.asked.load(Ordering::Relaxed), keys.returned.load(Ordering::Relaxed));
    let _ = writeln!(out, "\nRead keys: {asked} asked, {returned} returned");
    report::errors_text(&mut out, &stats, &failures);
    print!("{out}");
    let count = |kind: usize| stats.kinds[kind].count;
    let doc = cfg.json_out_file.as_deref().map(|path| {
        (path, json!({
            "configuration": {
                "mode": if cfg.load { "canonical load" } else { "canonical" },
                "server": cfg.server, "port": cfg.port, "protocol": "memcache_text",
                "clients": cfg.clients, "threads": cfg.threads,
                "requests": cfg.requests.unwrap_or(0), "test_time": cfg.test_time.unwrap_or(0), "keys": cfg.keys,
                "ratio": format!("{}:{}:{}:{}", cfg.mix.deletes, cfg.mix.updates, cfg.mix.inserts, cfg.mix.reads),
                "batch": format!("{}-{}", cfg.batch.min, cfg.batch.max),
                "key_size": format!("{}-{}", cfg.key_size.min, cfg.key_size.max),
                "value_size": format!("{}-{}", cfg.value_size.min, cfg.value_size.max),
                "authenticate": if cfg.auth.is_some() { "(set)" } else { "" },
            },
            "run information": {
                "Connections": cfg.clients,
                "Threads": cfg.threads,
                "Actual benchmark duration (seconds)": (stats.secs() * 100.0).round() / 100.0,
                "Benchmark completion status": if failures.is_empty() { "COMPLETED" } else { "COMPLETED WITH ERRORS" },
                "Format version": 2,
                "Tool": concat!("basalt-bench ", env!("CARGO_PKG_VERSION")),
            },
            "ALL STATS": report::stats_json(&stats, &spec, start_ms),
            "canonical": {
                "memcached commands": {
                    "get": count(READ),
                    "set": count(UPDATE) + if cfg.load { count(INSERT) } else { 0 },
                    "add": if cfg.load { 0 } else { count(INSERT) },
                    "delete": count(DELETE),
                },
                "read keys asked": asked,
                "read keys returned": returned,
            },
            "errors": { "error replies": stats.error_replies(), "messages": failures },
        }))
    });
    report::finish(doc, &stats, &failures)
}
