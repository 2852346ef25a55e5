//! The memtier mode: parse, run `--run-count` times, print the table(s), write the JSON.

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{json, Map, Value};

use crate::cli::{Args, Config, Protocol, Stop};
use crate::client::{self, ClientCtx, KIND_NAMES};
use crate::net::Connector;
use crate::report::{self, KindInfo, ReportSpec};
use crate::runner::{self, LocalTask, RunPlan, TaskFactory};
use crate::stats::RunStats;

pub const KINDS: [KindInfo; 3] = [
    KindInfo { table: KIND_NAMES[0], hist: "SET", has_hits: false, unused: false },
    KindInfo { table: KIND_NAMES[1], hist: "GET", has_hits: true, unused: false },
    KindInfo { table: KIND_NAMES[2], hist: "WAIT", has_hits: false, unused: true },
];

/// Entry point; returns the process exit code.
pub fn main(argv: Vec<String>) -> i32 {
    let args = match Args::parse_memtier(argv) {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let cfg = match Config::from_args(args) {
        Ok(c) => Arc::new(c),
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let connector = match Connector::new(
        &cfg.server,
        cfg.port,
        cfg.tls.as_ref(),
        cfg.protocol,
        cfg.auth.clone(),
        cfg.select_db,
        Duration::from_secs(cfg.timeout_secs),
    ) {
        Ok(c) => Arc::new(c),
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let base_seed = if cfg.randomize { crate::rng::random_seed() } else { 0x006d_656d_7469_6572 };
    let kinds = kinds_of(&cfg);
    let spec = ReportSpec { kinds: &kinds, percentiles: &cfg.percentiles };

    let mut runs: Vec<(RunStats, u64)> = Vec::new();
    for run_no in 1..=cfg.run_count {
        eprintln!("[RUN #{run_no}] Launching threads now...");
        let start_ms = unix_ms();
        let stats = run_once(&cfg, &connector, run_no, base_seed.wrapping_add(run_no as u64 - 1));
        let totals = stats.totals();
        eprintln!(
            "[RUN #{run_no} 100%, {:3.0} secs] {} ops, {:.0} ops/sec",
            stats.secs(),
            totals.count,
            totals.count as f64 / stats.secs()
        );
        runs.push((stats, start_ms));
    }

    let mut text = String::new();
    let mut json_runs = Map::new();
    if runs.len() == 1 {
        let (stats, start) = &runs[0];
        text.push_str(&report::table("ALL STATS", stats, &spec));
        if !cfg.hide_histogram {
            text.push_str(&report::histogram_text(stats, &spec));
        }
        json_runs.insert("ALL STATS".into(), report::stats_json(stats, &spec, *start));
    } else {
        for (i, (stats, start)) in runs.iter().enumerate() {
            json_runs.insert(format!("RUN #{} RESULTS", i + 1), report::stats_json(stats, &spec, *start));
        }
        let ops = |r: &RunStats| r.totals().count as f64 / r.secs();
        let best = runs.iter().max_by(|a, b| ops(&a.0).total_cmp(&ops(&b.0))).expect("runs");
        let worst = runs.iter().min_by(|a, b| ops(&a.0).total_cmp(&ops(&b.0))).expect("runs");
        let mut agg = RunStats::new(kinds.len(), runs[0].0.start);
        let mut total_time = Duration::ZERO;
        for (r, _) in &runs {
            agg.merge(r);
            total_time += r.duration;
        }
        agg.duration = total_time;
        let agg_title = format!("AGGREGATED AVERAGE RESULTS ({} runs)", runs.len());
        for (title, (stats, start)) in [("BEST RUN RESULTS", best), ("WORST RUN RESULTS", worst)] {
            text.push_str(&report::table(title, stats, &spec));
            json_runs.insert(title.into(), report::stats_json(stats, &spec, *start));
        }
        text.push_str(&report::table(&agg_title, &agg, &spec));
        if !cfg.hide_histogram {
            text.push_str(&report::histogram_text(&agg, &spec));
        }
        json_runs.insert(agg_title, report::stats_json(&agg, &spec, runs[0].1));
    }

    let mut failures: Vec<String> = Vec::new();
    let (mut error_replies, mut conn_errors) = (0u64, 0usize);
    for (stats, _) in &runs {
        error_replies += stats.error_replies();
        conn_errors += stats.connection_errors.len();
        failures.extend(stats.connection_errors.iter().cloned());
        failures.extend(stats.error_samples.iter().map(|e| format!("error reply: {e}")));
    }
    failures.dedup();
    if error_replies > 0 || conn_errors > 0 {
        let _ = writeln!(
            text,
            "\nErrors: {error_replies} error replies, {conn_errors} failed connections"
        );
        for f in failures.iter().take(10) {
            let _ = writeln!(text, "  {f}");
        }
    }

    let write_out = match &cfg.out_file {
        Some(path) => std::fs::write(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes()).and_then(|_| out.flush()).map_err(|e| e.to_string())
        }
    };
    if let Err(e) = write_out {
        eprintln!("error: {e}");
        return 1;
    }
    if let Some(path) = &cfg.json_out_file {
        let doc = json_document(&cfg, &runs, json_runs, error_replies, &failures);
        let body = serde_json::to_string_pretty(&doc).unwrap_or_default();
        if let Err(e) = std::fs::write(path, body) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return 1;
        }
    }
    for f in failures.iter().take(10) {
        eprintln!("error: {f}");
    }
    if error_replies > 0 || conn_errors > 0 {
        1
    } else {
        0
    }
}

fn run_once(cfg: &Arc<Config>, connector: &Arc<Connector>, run_no: u32, base_seed: u64) -> RunStats {
    let total_ops = match cfg.stop {
        Stop::Requests(n) => Some(n * cfg.threads as u64 * cfg.clients as u64),
        Stop::Seconds(_) => None,
    };
    let test_time = match cfg.stop {
        Stop::Seconds(s) => Some(Duration::from_secs(s)),
        Stop::Requests(_) => None,
    };
    let plan = RunPlan {
        label: format!("RUN #{run_no}"),
        threads: cfg.threads,
        kinds: if cfg.commands.is_empty() { KINDS.len() } else { cfg.commands.len() },
        total_ops,
        test_time,
        stall_timeout: Duration::from_secs(cfg.timeout_secs),
    };
    let (cfg2, conn2) = (cfg.clone(), connector.clone());
    let factory: TaskFactory = Arc::new(move |ctx| {
        (0..cfg2.clients)
            .map(|c| {
                let conn_index = ctx.thread as u64 * cfg2.clients as u64 + c as u64;
                let task = client::run_client(ClientCtx {
                    cfg: cfg2.clone(),
                    connector: conn2.clone(),
                    conn_index,
                    seed: client::client_seed(base_seed, cfg2.distinct_client_seed, conn_index),
                    stats: ctx.stats.clone(),
                    progress: ctx.progress.clone(),
                    stop: ctx.stop.clone(),
                });
                Box::pin(task) as LocalTask
            })
            .collect()
    });
    runner::run(&plan, factory)
}

/// The table's rows: Sets, Gets and Waits, or one per `--command` (named by its first word;
/// the names live as long as the process, as the constant rows do).
fn kinds_of(cfg: &Config) -> Vec<KindInfo> {
    if cfg.commands.is_empty() {
        return KINDS.to_vec();
    }
    cfg.commands
        .iter()
        .map(|c| {
            let name: &'static str = Box::leak(c.name.clone().into_boxed_str());
            KindInfo { table: name, hist: name, has_hits: false, unused: false }
        })
        .collect()
}

fn unix_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

fn json_document(cfg: &Config, runs: &[(RunStats, u64)], stats: Map<String, Value>, error_replies: u64, failures: &[String]) -> Value {
    let a = &cfg.args;
    let protocol = match cfg.protocol {
        Protocol::Resp2 => a.protocol.as_str(),
        Protocol::Resp3 => "resp3",
        Protocol::MemcacheText => "memcache_text",
    };
    let requests = match cfg.stop {
        Stop::Requests(n) => n,
        Stop::Seconds(_) => 0,
    };
    let duration: f64 = runs.iter().map(|(r, _)| r.secs()).sum::<f64>() / runs.len().max(1) as f64;
    let mut doc = Map::new();
    doc.insert(
        "configuration".into(),
        json!({
            "server": cfg.server,
            "port": cfg.port,
            "protocol": protocol,
            "tls": if cfg.tls.is_some() { "true" } else { "false" },
            "run_count": cfg.run_count,
            "requests": requests,
            "rate_limit": cfg.rate_limit.unwrap_or(0),
            "clients": cfg.clients,
            "threads": cfg.threads,
            "test_time": a.test_time.unwrap_or(0),
            "ratio": format!("{}:{}", cfg.ratio.0, cfg.ratio.1),
            "pipeline": cfg.pipeline,
            "data_size": a.data_size.unwrap_or(if a.data_size_range.is_none() && a.data_size_list.is_none() { 32 } else { 0 }),
            "random_data": if cfg.random_data { "true" } else { "false" },
            "data_size_range": a.data_size_range.clone().unwrap_or_else(|| "0:0".into()),
            "data_size_list": a.data_size_list.clone().unwrap_or_default(),
            "data_size_pattern": a.data_size_pattern,
            "key_prefix": cfg.key_prefix,
            "key_minimum": cfg.key_min,
            "key_maximum": cfg.key_max,
            "key_pattern": a.key_pattern,
            "key_stddev": a.key_stddev.unwrap_or(0.0),
            "key_median": a.key_median.unwrap_or(0.0),
            "randomize": cfg.randomize,
            "distinct_client_seed": cfg.distinct_client_seed,
            "authenticate": if cfg.auth.is_some() { "(set)" } else { "" },
            "select-db": cfg.select_db.unwrap_or(0),
            "print-percentiles": cfg.percentiles,
        }),
    );
    let ok = error_replies == 0 && failures.is_empty();
    doc.insert(
        "run information".into(),
        json!({
            "Threads": cfg.threads,
            "Connections per thread": cfg.clients,
            "Requests per client": requests,
            "Actual benchmark duration (seconds)": (duration * 100.0).round() / 100.0,
            "Benchmark completion status": if ok { "COMPLETED" } else { "COMPLETED WITH ERRORS" },
            "Format version": 2,
            "Tool": concat!("basalt-bench ", env!("CARGO_PKG_VERSION")),
        }),
    );
    for (k, v) in stats {
        doc.insert(k, v);
    }
    doc.insert("errors".into(), json!({ "error replies": error_replies, "messages": failures }));
    Value::Object(doc)
}

use std::fmt::Write as _;
