//! `basalt-bench ycsb load|run`: YCSB's CoreWorkload over the Redis protocol.
//!
//! YCSB's "threads" are connections here, each a synchronous client as in YCSB; they are
//! spread over at most as many OS threads as the machine has cores.

pub mod args;
pub mod client;
pub mod generators;
pub mod workload;

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::json;

use crate::cli::Protocol;
use crate::net::Connector;
use crate::report::{self, KindInfo, ReportSpec};
use crate::runner::{self, LocalTask, RunPlan, TaskFactory};
use crate::stats::RunStats;
use args::Phase;
use client::YcsbCtx;
use workload::{Workload, OP_NAMES};

pub const KINDS: [KindInfo; 5] = [
    KindInfo { table: "Reads", hist: OP_NAMES[0], has_hits: true, unused: false },
    KindInfo { table: "Updates", hist: OP_NAMES[1], has_hits: false, unused: false },
    KindInfo { table: "Inserts", hist: OP_NAMES[2], has_hits: false, unused: false },
    KindInfo { table: "Scans", hist: OP_NAMES[3], has_hits: true, unused: false },
    KindInfo { table: "RMWs", hist: OP_NAMES[4], has_hits: true, unused: false },
];

/// Entry point; `argv[0]` is "ycsb". Returns the process exit code.
pub fn main(argv: Vec<String>) -> i32 {
    let a = match args::parse(&argv) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return if e.starts_with("usage:") && argv.iter().any(|s| s == "-h" || s == "--help") { 0 } else { 2 };
        }
    };
    let w = match Workload::from_props(&a.props, a.phase) {
        Ok(w) => Arc::new(w),
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let connector = match Connector::new(&a.server, a.port, a.tls.as_ref(), Protocol::Resp2, a.auth.clone(), None, Duration::from_secs(a.timeout_secs)) {
        Ok(c) => Arc::new(c),
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let conns = a.threads as u64;
    let total_ops = match a.phase {
        Phase::Load => w.insertcount,
        Phase::Run => w.operationcount,
    };
    let os_threads = std::thread::available_parallelism().map(|n| n.get() as u32).unwrap_or(1).min(a.threads);
    let seq = Arc::new(w.insert_sequence());
    let base_seed = a.seed.unwrap_or_else(crate::rng::random_seed);
    let interval = a.target.map(|t| Duration::from_secs_f64(conns as f64 / t));
    let phase = a.phase;
    let plan = RunPlan {
        label: format!("YCSB {}", if phase == Phase::Load { "load" } else { "run" }),
        threads: os_threads,
        kinds: KINDS.len(),
        total_ops: Some(total_ops),
        test_time: None,
        stall_timeout: Duration::from_secs(a.timeout_secs),
    };
    let (w2, c2, seq2) = (w.clone(), connector.clone(), seq.clone());
    let factory: TaskFactory = Arc::new(move |ctx| {
        // Connection i runs on OS thread i % os_threads; each gets an even share of the work.
        (0..conns)
            .filter(|i| i % os_threads as u64 == ctx.thread as u64)
            .map(|i| {
                let share = total_ops / conns + u64::from(i < total_ops % conns);
                let first = w2.insertstart + i * (total_ops / conns) + i.min(total_ops % conns);
                Box::pin(client::run_client(YcsbCtx {
                    workload: w2.clone(),
                    connector: c2.clone(),
                    phase,
                    conn_index: i,
                    first_key: first,
                    ops: share,
                    seq: seq2.clone(),
                    seed: base_seed.wrapping_add((i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                    interval,
                    stats: ctx.stats.clone(),
                    progress: ctx.progress.clone(),
                    stop: ctx.stop.clone(),
                })) as LocalTask
            })
            .collect()
    });
    let start_ms = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0);
    let stats = runner::run(&plan, factory);
    let spec = ReportSpec { kinds: &KINDS, percentiles: &a.percentiles };

    let mut out = ycsb_text(&stats);
    out.push_str(&report::table("ALL STATS", &stats, &spec));
    if !a.hide_histogram {
        out.push_str(&report::histogram_text(&stats, &spec));
    }
    let failures = report::failures(&stats);
    report::errors_text(&mut out, &stats, &failures);
    print!("{out}");
    let doc = a.json_out_file.as_deref().map(|path| {
        (
            path,
            json!({
                "configuration": {
                    "mode": format!("ycsb {}", if phase == Phase::Load { "load" } else { "run" }),
                    "server": a.server, "port": a.port, "threads": a.threads, "target": a.target,
                    "properties": a.props.iter().filter(|(k, _)| k.as_str() != "redis.password").collect::<std::collections::BTreeMap<_, _>>(),
                },
                "run information": {
                    "Threads": a.threads,
                    "Operations": total_ops,
                    "Actual benchmark duration (seconds)": (stats.secs() * 100.0).round() / 100.0,
                    "Benchmark completion status": if failures.is_empty() { "COMPLETED" } else { "COMPLETED WITH ERRORS" },
                    "Format version": 2,
                    "Tool": concat!("basalt-bench ", env!("CARGO_PKG_VERSION")),
                },
                "ALL STATS": report::stats_json(&stats, &spec, start_ms),
                "errors": { "error replies": stats.error_replies(), "messages": failures },
            }),
        )
    });
    report::finish(doc, &stats, &failures)
}

/// YCSB's own summary lines ([OVERALL], [READ], ...).
fn ycsb_text(stats: &RunStats) -> String {
    let mut out = String::new();
    let totals = stats.totals();
    let _ = writeln!(out, "[OVERALL], RunTime(ms), {}", stats.duration.as_millis());
    let _ = writeln!(out, "[OVERALL], Throughput(ops/sec), {:.2}", totals.count as f64 / stats.secs());
    for (name, op) in OP_NAMES.iter().zip(&stats.kinds) {
        if op.count == 0 {
            continue;
        }
        let us = |p: f64| op.hist.value_at_quantile(p / 100.0);
        let _ = writeln!(out, "[{name}], Operations, {}", op.count);
        let _ = writeln!(out, "[{name}], AverageLatency(us), {:.3}", op.lat_sum_ns as f64 / op.count as f64 / 1000.0);
        let _ = writeln!(out, "[{name}], MinLatency(us), {}", op.hist.min());
        let _ = writeln!(out, "[{name}], MaxLatency(us), {}", op.hist.max());
        let _ = writeln!(out, "[{name}], 95thPercentileLatency(us), {}", us(95.0));
        let _ = writeln!(out, "[{name}], 99thPercentileLatency(us), {}", us(99.0));
        let ok = op.count - op.errors - op.misses;
        let _ = writeln!(out, "[{name}], Return=OK, {ok}");
        if op.misses > 0 {
            let _ = writeln!(out, "[{name}], Return=NOT_FOUND, {}", op.misses);
        }
        if op.errors > 0 {
            let _ = writeln!(out, "[{name}], Return=ERROR, {}", op.errors);
        }
    }
    out
}
