//! memtier's summary table, its latency distribution and its JSON layout (plus the full
//! HdrHistogram of every command kind, compressed as HdrHistogram's V2 log format).

use std::fmt::Write as _;

use hdrhistogram::serialization::{Serializer, V2DeflateSerializer};
use hdrhistogram::Histogram;
use serde_json::{json, Map, Value};

use crate::stats::{OpStats, RunStats};

/// One row of the table.
#[derive(Clone, Copy)]
pub struct KindInfo {
    /// Row name in the table and key in the JSON ("Sets").
    pub table: &'static str,
    /// Name in the latency distribution ("SET").
    pub hist: &'static str,
    /// Whether hits and misses mean something for this kind.
    pub has_hits: bool,
    /// A kind basalt-bench never issues (memtier's Waits): shown as dashes.
    pub unused: bool,
}

pub struct ReportSpec<'a> {
    pub kinds: &'a [KindInfo],
    pub percentiles: &'a [f64],
}

pub fn percentile_label(p: f64) -> String {
    let mut s = format!("{p:.3}");
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    format!("p{s}")
}

fn kb_per_sec(op: &OpStats, secs: f64) -> f64 {
    (op.bytes_rx + op.bytes_tx) as f64 / 1024.0 / secs
}

pub fn table(title: &str, stats: &RunStats, spec: &ReportSpec) -> String {
    let secs = stats.secs();
    let mut header = format!("{:<10}{:>12}{:>13}{:>13}{:>16}", "Type", "Ops/sec", "Hits/sec", "Misses/sec", "Avg. Latency");
    for p in spec.percentiles {
        let _ = write!(header, "{:>16}", format!("{} Latency", percentile_label(*p)));
    }
    let _ = write!(header, "{:>13}", "KB/sec");
    let width = header.len();
    let mut out = String::new();
    let _ = writeln!(out, "\n{title}");
    let _ = writeln!(out, "{}", "=".repeat(width));
    let _ = writeln!(out, "{header}");
    let _ = writeln!(out, "{}", "-".repeat(width));
    let dash = "---";
    for (info, op) in spec.kinds.iter().zip(&stats.kinds) {
        if info.unused {
            let mut row = format!("{:<10}{:>12.2}{:>13}{:>13}{:>16}", info.table, 0.0, dash, dash, dash);
            for _ in spec.percentiles {
                let _ = write!(row, "{dash:>16}");
            }
            let _ = writeln!(out, "{row}{dash:>13}");
            continue;
        }
        let _ = writeln!(out, "{}", row(info.table, op, secs, info.has_hits, spec.percentiles));
    }
    let totals = stats.totals();
    let _ = writeln!(out, "{}", row("Totals", &totals, secs, true, spec.percentiles));
    out
}

fn row(name: &str, op: &OpStats, secs: f64, has_hits: bool, percentiles: &[f64]) -> String {
    let (hits, misses) = if has_hits {
        (format!("{:.2}", op.hits as f64 / secs), format!("{:.2}", op.misses as f64 / secs))
    } else {
        ("---".to_string(), "---".to_string())
    };
    let mut row = format!(
        "{:<10}{:>12.2}{:>13}{:>13}{:>16.5}",
        name,
        op.count as f64 / secs,
        hits,
        misses,
        op.avg_latency_ms()
    );
    for p in percentiles {
        let _ = write!(row, "{:>16.5}", op.percentile_ms(*p));
    }
    let _ = write!(row, "{:>13.2}", kb_per_sec(op, secs));
    row
}

/// memtier's "Request Latency Distribution": every recorded bucket with its cumulative percent.
pub fn histogram_text(stats: &RunStats, spec: &ReportSpec) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\n\nRequest Latency Distribution");
    let _ = writeln!(out, "{:<8}{:>12}{:>16}", "Type", "<= msec", "Percent");
    let _ = writeln!(out, "{}", "-".repeat(72));
    let mut first = true;
    for (info, op) in spec.kinds.iter().zip(&stats.kinds) {
        if info.unused || op.count == 0 {
            continue;
        }
        if !first {
            let _ = writeln!(out, "---");
        }
        first = false;
        for v in op.hist.iter_recorded() {
            let _ = writeln!(
                out,
                "{:<8}{:>12.3}{:>16.3}",
                info.hist,
                v.value_iterated_to() as f64 / 1000.0,
                v.percentile()
            );
        }
    }
    out
}

pub fn base64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        out.push(T[(n >> 18) as usize & 63] as char);
        out.push(T[(n >> 12) as usize & 63] as char);
        out.push(if chunk.len() > 1 { T[(n >> 6) as usize & 63] as char } else { '=' });
        out.push(if chunk.len() > 2 { T[n as usize & 63] as char } else { '=' });
    }
    out
}

pub fn compressed(hist: &Histogram<u64>) -> String {
    let mut buf = Vec::new();
    match V2DeflateSerializer::new().serialize(hist, &mut buf) {
        Ok(_) => base64(&buf),
        Err(_) => String::new(),
    }
}

fn ms(ns: u64) -> f64 {
    ns as f64 / 1e6
}

fn round(v: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (v * f).round() / f
}

fn op_json(op: &OpStats, secs: f64, has_hits: bool, percentiles: &[f64], series: Option<Value>, full: bool) -> Value {
    let mut m = Map::new();
    m.insert("Count".into(), json!(op.count));
    if full {
        m.insert("Ops/sec".into(), json!(round(op.count as f64 / secs, 2)));
        let (h, mi) = if has_hits { (op.hits as f64 / secs, op.misses as f64 / secs) } else { (0.0, 0.0) };
        m.insert("Hits/sec".into(), json!(round(h, 2)));
        m.insert("Misses/sec".into(), json!(round(mi, 2)));
        m.insert("Hits".into(), json!(op.hits));
        m.insert("Misses".into(), json!(op.misses));
        m.insert("Errors".into(), json!(op.errors));
        m.insert("Latency".into(), json!(round(op.avg_latency_ms(), 5)));
    } else {
        m.insert("Bytes RX".into(), json!(op.bytes_rx));
        m.insert("Bytes TX".into(), json!(op.bytes_tx));
    }
    m.insert("Average Latency".into(), json!(round(op.avg_latency_ms(), 5)));
    m.insert("Accumulated Latency".into(), json!(op.lat_sum_ns / 1000));
    let min = if op.count == 0 { 0 } else { op.lat_min_ns };
    m.insert("Min Latency".into(), json!(round(ms(min), 5)));
    m.insert("Max Latency".into(), json!(round(ms(op.lat_max_ns), 5)));
    if full {
        m.insert("KB/sec".into(), json!(round(kb_per_sec(op, secs), 2)));
        m.insert("KB/sec RX/TX".into(), json!(round(kb_per_sec(op, secs), 2)));
        m.insert("KB/sec RX".into(), json!(round(op.bytes_rx as f64 / 1024.0 / secs, 2)));
        m.insert("KB/sec TX".into(), json!(round(op.bytes_tx as f64 / 1024.0 / secs, 2)));
        if let Some(s) = series {
            m.insert("Time-Serie".into(), s);
        }
        let mut pct = Map::new();
        for p in percentiles {
            pct.insert(format!("p{p:.2}"), json!(round(op.percentile_ms(*p), 5)));
        }
        pct.insert("Histogram log format".into(), json!({ "Compressed Histogram": compressed(&op.hist) }));
        m.insert("Percentile Latencies".into(), Value::Object(pct));
        let dist: Vec<Value> = op
            .hist
            .iter_recorded()
            .map(|v| json!([round(v.value_iterated_to() as f64 / 1000.0, 3), v.count_since_last_iteration(), round(v.percentile(), 5)]))
            .collect();
        m.insert("Latency Distribution (msec, count, cumulative percent)".into(), Value::Array(dist));
    } else {
        for p in percentiles {
            m.insert(format!("p{p:.2}"), json!(round(op.percentile_ms(*p), 5)));
        }
    }
    Value::Object(m)
}

/// One run's block: what memtier writes under "ALL STATS" (or "BEST RUN RESULTS" ...).
pub fn stats_json(stats: &RunStats, spec: &ReportSpec, start_unix_ms: u64) -> Value {
    let secs = stats.secs();
    let mut block = Map::new();
    let dur_ms = stats.duration.as_millis() as u64;
    block.insert(
        "Runtime".into(),
        json!({
            "Start time": start_unix_ms,
            "Finish time": start_unix_ms + dur_ms,
            "Total duration": dur_ms,
            "Time unit": "MILLISECONDS"
        }),
    );
    let series_of = |idx: Option<usize>| -> Value {
        let mut s = Map::new();
        for (sec, kinds) in stats.seconds.iter().enumerate() {
            let mut op = OpStats::default();
            for (i, k) in kinds.iter().enumerate() {
                if let Some(k) = k {
                    if idx.is_none() || idx == Some(i) {
                        op.merge(k);
                    }
                }
            }
            s.insert(sec.to_string(), op_json(&op, 1.0, false, spec.percentiles, None, false));
        }
        Value::Object(s)
    };
    for (i, (info, op)) in spec.kinds.iter().zip(&stats.kinds).enumerate() {
        block.insert(info.table.into(), op_json(op, secs, info.has_hits, spec.percentiles, Some(series_of(Some(i))), true));
    }
    block.insert(
        "Totals".into(),
        op_json(&stats.totals(), secs, true, spec.percentiles, Some(series_of(None)), true),
    );
    Value::Object(block)
}

/// Failed connections, then samples of the error replies: what a run lists under "Errors".
pub fn failures(stats: &RunStats) -> Vec<String> {
    stats
        .connection_errors
        .iter()
        .cloned()
        .chain(stats.error_samples.iter().map(|e| format!("error reply: {e}")))
        .collect()
}

/// The "Errors:" block of the text report, when there were any.
pub fn errors_text(out: &mut String, stats: &RunStats, failures: &[String]) {
    if failures.is_empty() {
        return;
    }
    let _ = writeln!(out, "\nErrors: {} error replies, {} failed connections", stats.error_replies(), stats.connection_errors.len());
    for f in failures.iter().take(10) {
        let _ = writeln!(out, "  {f}");
    }
}

/// The end of a YCSB or canonical run: the JSON file (when asked for), the failures on
/// stderr, and the exit code (1 when anything failed).
pub fn finish(json: Option<(&std::path::Path, Value)>, stats: &RunStats, failures: &[String]) -> i32 {
    if let Some((path, doc)) = json {
        if let Err(e) = std::fs::write(path, serde_json::to_string_pretty(&doc).unwrap_or_default()) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return 1;
        }
    }
    for f in failures.iter().take(10) {
        eprintln!("error: {f}");
    }
    i32::from(!failures.is_empty() || stats.error_replies() > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_known_values() {
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn labels() {
        assert_eq!(percentile_label(50.0), "p50");
        assert_eq!(percentile_label(99.9), "p99.9");
    }

    #[test]
    fn compressed_histogram_has_the_v2_cookie() {
        let mut h = crate::stats::new_histogram();
        h.record(100).unwrap();
        assert!(compressed(&h).starts_with("HISTFAAA"));
    }
}
