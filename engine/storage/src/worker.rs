//! The background threads: the log thread (group commit under `always`, the once-a-second
//! fsync under `everysec`) and the maintenance thread (active expiry sweep, compaction).

use crate::db::Inner;
use crate::error::StorageError;
use crate::options::Fsync;
use crate::wal::{lock, WakeEarly};
use std::sync::atomic::Ordering::{Acquire, Relaxed};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub(crate) fn spawn(inner: &Arc<Inner>) -> Result<Vec<JoinHandle<()>>, StorageError> {
    let spawn_err = |e| StorageError::io("spawn storage thread", e);
    let log = inner.clone();
    let maint = inner.clone();
    Ok(vec![
        std::thread::Builder::new().name("basalt-log".into()).spawn(move || log_loop(&log)).map_err(spawn_err)?,
        std::thread::Builder::new()
            .name("basalt-maint".into())
            .spawn(move || maintenance_loop(&maint))
            .map_err(spawn_err)?,
    ])
}

fn log_loop(inner: &Inner) {
    let wal = &inner.wal;
    let mut last_sync = Instant::now();
    loop {
        if wal.shutdown.load(Acquire) {
            if wal.sync().is_ok() {
                wal.trim_active();
            }
            return;
        }
        if wal.is_poisoned() {
            wal.wait_for_work(Duration::from_secs(1), WakeEarly::Never);
            continue;
        }
        match wal.mode() {
            Fsync::Always => {
                wal.wait_for_work(Duration::from_millis(100), WakeEarly::Waiter);
                let _ = wal.sync();
                last_sync = Instant::now();
            }
            Fsync::EverySec => {
                let elapsed = last_sync.elapsed();
                if elapsed >= Duration::from_secs(1) || wal.take_segment_ended() {
                    let _ = wal.sync();
                    last_sync = Instant::now();
                } else {
                    wal.wait_for_work(Duration::from_secs(1) - elapsed, WakeEarly::SegmentEnded);
                }
            }
            Fsync::No => {
                let _ = wal.write_out();
                wal.wait_for_work(Duration::from_secs(1), WakeEarly::Never);
            }
        }
    }
}

/// Archiving's seal (`archive.rs`): what was appended becomes durable, so a backup may read it.
/// By default the active segment's tail is made durable (a sync, nothing under `always`, where
/// it is already); with `Options::archive_seal_segments` the active segment is ended instead,
/// so only whole segments are archived (measured against each other in engine/README.md).
fn seal(inner: &Inner) -> Result<(), StorageError> {
    let wal = &inner.wal;
    if inner.opts.archive_seal_segments {
        if wal.active().1.bytes > 0 {
            wal.seal()?;
            wal.sync()?;
        }
    } else if wal.durable() < wal.appended() {
        wal.sync()?;
    }
    Ok(())
}

fn maintenance_loop(inner: &Inner) {
    let mut last_compaction_check = Instant::now();
    // The segment buffer of compaction (compact::maybe_compact), kept while compaction runs
    // second after second under a write-heavy load.
    let mut scratch = Vec::new();
    let mut last_seal = Instant::now();
    while !inner.wal.shutdown.load(Acquire) {
        let seal_every = Duration::from_millis(inner.seal_interval_ms.load(Relaxed));
        std::thread::sleep(seal_every.min(Duration::from_millis(100)));
        if inner.wal.archive.load(Relaxed) && last_seal.elapsed() >= seal_every {
            if let Err(e) = seal(inner) {
                eprintln!("basalt-storage: sealing the log for archiving failed: {e}");
            }
            last_seal = Instant::now();
        }
        let now = crate::now_ms();
        let sweep = inner.active_expire.load(std::sync::atomic::Ordering::Relaxed)
            && inner.frozen_clocks.load(std::sync::atomic::Ordering::Relaxed) == 0;
        for (i, s) in inner.shards.iter().enumerate().filter(|_| sweep) {
            let db = i / inner.per_db;
            lock(s).sweep_expired(&inner.counters, now, 256, &|key| {
                inner.watches.touch(db, key);
                inner.report(db, key, crate::events::KeyEvent::Expired);
            });
        }
        if last_compaction_check.elapsed() >= Duration::from_secs(1) {
            let mut compacted = false;
            while !inner.wal.shutdown.load(Acquire) {
                match crate::compact::maybe_compact(inner, &mut scratch, !compacted) {
                    Ok(true) => compacted = true,
                    Ok(false) => break,
                    Err(e) => {
                        eprintln!("basalt-storage: compaction failed: {e}");
                        break;
                    }
                }
            }
            if !compacted {
                // Caught up: a second with nothing to compact gives the buffer back.
                scratch = Vec::new();
            }
            last_compaction_check = Instant::now();
        }
    }
}
