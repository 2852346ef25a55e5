//! Threads, each with a current-thread tokio runtime running its connections as local tasks;
//! the main thread prints progress on stderr, ends timed runs and aborts stalled ones.

use std::cell::RefCell;
use std::future::Future;
use std::io::{IsTerminal, Write};
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::stats::{Progress, RunStats};

/// A connection of a task has ended: its error (if any) noted, and it counts as done.
pub fn connection_ended(result: Result<(), String>, conn_index: u64, stats: &RefCell<RunStats>, progress: &Progress) {
    if let Err(e) = result {
        stats.borrow_mut().note_connection_error(format!("connection {conn_index}: {e}"));
        progress.errors.fetch_add(1, Ordering::Relaxed);
    }
    progress.connections_done.fetch_add(1, Ordering::Relaxed);
}

pub type LocalTask = Pin<Box<dyn Future<Output = ()>>>;

/// Handed to the task factory inside each thread.
pub struct ThreadCtx {
    pub thread: u32,
    pub stats: Rc<RefCell<RunStats>>,
    pub progress: Arc<Progress>,
    pub stop: Arc<AtomicBool>,
}

pub type TaskFactory = Arc<dyn Fn(ThreadCtx) -> Vec<LocalTask> + Send + Sync>;

pub struct RunPlan {
    /// e.g. "RUN #1" or "YCSB run".
    pub label: String,
    pub threads: u32,
    /// Names of the command kinds recorded (table rows).
    pub kinds: usize,
    /// Known total of operations, for the percentage shown.
    pub total_ops: Option<u64>,
    pub test_time: Option<Duration>,
    /// Abort when no reply at all arrives for this long.
    pub stall_timeout: Duration,
}

/// Run one measurement and return the merged stats of all threads.
pub fn run(plan: &RunPlan, factory: TaskFactory) -> RunStats {
    let start = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let abort = Arc::new(AtomicBool::new(false));
    let finished = Arc::new(AtomicU32::new(0));
    let progresses: Vec<Arc<Progress>> = (0..plan.threads).map(|_| Arc::new(Progress::default())).collect();

    let mut handles = Vec::new();
    for t in 0..plan.threads {
        let (factory, stop, abort, finished) = (factory.clone(), stop.clone(), abort.clone(), finished.clone());
        let progress = progresses[t as usize].clone();
        let kinds = plan.kinds;
        let stall = plan.stall_timeout;
        let handle = std::thread::Builder::new()
            .name(format!("bench-{t}"))
            .spawn(move || {
                let stats = Rc::new(RefCell::new(RunStats::new(kinds, start)));
                let rt = tokio::runtime::Builder::new_current_thread().enable_all().build();
                match rt {
                    Ok(rt) => {
                        let local = tokio::task::LocalSet::new();
                        local.block_on(&rt, run_thread(t, stats.clone(), progress, stop, abort, factory, stall));
                    }
                    Err(e) => stats.borrow_mut().note_connection_error(format!("thread {t}: cannot start runtime: {e}")),
                }
                finished.fetch_add(1, Ordering::SeqCst);
                let mut out = stats.borrow().clone();
                out.duration = start.elapsed();
                out
            })
            .expect("spawn benchmark thread");
        handles.push(handle);
    }

    monitor(plan, start, &progresses, &stop, &abort, &finished);

    let mut merged = RunStats::new(plan.kinds, start);
    for h in handles {
        match h.join() {
            Ok(stats) => merged.merge(&stats),
            Err(_) => merged.note_connection_error("a benchmark thread panicked".into()),
        }
    }
    merged
}

async fn run_thread(
    thread: u32,
    stats: Rc<RefCell<RunStats>>,
    progress: Arc<Progress>,
    stop: Arc<AtomicBool>,
    abort: Arc<AtomicBool>,
    factory: TaskFactory,
    stall: Duration,
) {
    let ctx = ThreadCtx { thread, stats: stats.clone(), progress, stop };
    let mut handles: Vec<_> = factory(ctx).into_iter().map(tokio::task::spawn_local).collect();
    let aborted = tokio::select! {
        _ = async { for h in handles.iter_mut() { let _ = h.await; } } => false,
        _ = async { while !abort.load(Ordering::Relaxed) { tokio::time::sleep(Duration::from_millis(50)).await; } } => true,
    };
    if aborted {
        let mut open = 0;
        for h in &handles {
            if !h.is_finished() {
                h.abort();
                open += 1;
            }
        }
        if open > 0 {
            stats.borrow_mut().note_connection_error(format!(
                "thread {thread}: {open} connection(s) got no reply for {}s and were aborted",
                stall.as_secs()
            ));
        }
    }
}

fn monitor(
    plan: &RunPlan,
    start: Instant,
    progresses: &[Arc<Progress>],
    stop: &AtomicBool,
    abort: &AtomicBool,
    finished: &AtomicU32,
) {
    let tty = std::io::stderr().is_terminal();
    let tick = Duration::from_millis(100);
    let mut last_print = start;
    let (mut last_ops, mut last_bytes, mut last_lat) = (0u64, 0u64, 0u64);
    let mut last_change = start;
    let mut seen_ops = 0u64;
    let mut printed = false;
    while finished.load(Ordering::SeqCst) < plan.threads {
        std::thread::sleep(tick);
        let now = Instant::now();
        let elapsed = now - start;
        if let Some(limit) = plan.test_time {
            if elapsed >= limit {
                stop.store(true, Ordering::Relaxed);
            }
        }
        let sum = |f: fn(&Progress) -> u64| progresses.iter().map(|p| f(p)).sum::<u64>();
        let ops = sum(|p| p.ops.load(Ordering::Relaxed));
        if ops != seen_ops {
            seen_ops = ops;
            last_change = now;
        } else if now - last_change >= plan.stall_timeout && !abort.load(Ordering::Relaxed) {
            eprintln!(
                "\nerror: no reply for {}s; aborting the run (use --timeout to wait longer)",
                plan.stall_timeout.as_secs()
            );
            stop.store(true, Ordering::Relaxed);
            abort.store(true, Ordering::Relaxed);
        }
        if now - last_print < Duration::from_secs(1) {
            continue;
        }
        let bytes = sum(|p| p.bytes.load(Ordering::Relaxed));
        let lat = sum(|p| p.lat_sum_ns.load(Ordering::Relaxed));
        let interval = (now - last_print).as_secs_f64();
        let secs = elapsed.as_secs_f64();
        let pct = match (plan.test_time, plan.total_ops) {
            (Some(t), _) => (secs / t.as_secs_f64() * 100.0).min(100.0),
            (None, Some(total)) if total > 0 => ops as f64 / total as f64 * 100.0,
            _ => 0.0,
        };
        let d_ops = ops - last_ops;
        let cur_lat = if d_ops > 0 { (lat - last_lat) as f64 / d_ops as f64 / 1e6 } else { 0.0 };
        let avg_lat = if ops > 0 { lat as f64 / ops as f64 / 1e6 } else { 0.0 };
        let line = format!(
            "[{} {:3.0}%, {:3.0} secs] {:2} threads: {:11} ops, {:7.0} (avg: {:7.0}) ops/sec, {} (avg: {}), {:5.2} (avg: {:5.2}) msec latency",
            plan.label,
            pct,
            secs,
            plan.threads,
            ops,
            d_ops as f64 / interval,
            ops as f64 / secs.max(1e-9),
            rate(bytes - last_bytes, interval),
            rate(bytes, secs),
            cur_lat,
            avg_lat,
        );
        let mut err = std::io::stderr().lock();
        let _ = if tty { write!(err, "\r{line}") } else { writeln!(err, "{line}") };
        printed = true;
        last_print = now;
        last_ops = ops;
        last_bytes = bytes;
        last_lat = lat;
    }
    if printed && tty {
        eprintln!();
    }
}

fn rate(bytes: u64, secs: f64) -> String {
    let per_sec = bytes as f64 / secs.max(1e-9);
    if per_sec >= 1024.0 * 1024.0 {
        format!("{:.2}MB/sec", per_sec / 1024.0 / 1024.0)
    } else {
        format!("{:.2}KB/sec", per_sec / 1024.0)
    }
}
