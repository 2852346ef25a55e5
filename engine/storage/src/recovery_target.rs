//! Recovery to a point in time: a restore places log segments into an empty data dir with a
//! one-shot `recovery.target` file (PostgreSQL's `recovery.signal` with its target). At open,
//! replay applies every record up to and including the last one whose time is at or before
//! `time-ms` (and whose LSN is at or before `lsn`), and cuts the log there: the segments after
//! the first record past the target are removed, last first, then that segment is cut at the
//! record, each step fsynced, and only then is the file removed (`Db::open`, `finish`). A crash
//! at any step leaves the file, so the next open stops at the same record and ends the same:
//! a removal stopped midway leaves a prefix of the segments (never a gap, which recovery would
//! refuse), and what was cut is not read again.
//!
//! The file, one `name=value` a line (`#` comments and blank lines are skipped):
//! ```text
//! time-ms=1767225600000
//! lsn=123456
//! ```
//! At least one of the two; with both, replay stops at whichever comes first. A record's time
//! is the one its log gave it (`Wal::append_timed`; on a replica, its primary's); records of a
//! segment written before times were logged (format 1) have time 0 and are always kept.

use crate::error::StorageError;
use crate::wal::{segment_path, sync_dir};
use std::path::Path;

/// The name of the target file in the data dir.
pub const TARGET_FILE: &str = "recovery.target";

/// Where replay must stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecoveryTarget {
    /// Keep records whose time (unix ms) is at or before this.
    pub time_ms: Option<u64>,
    /// Keep records whose LSN is at or before this.
    pub lsn: Option<u64>,
}

/// What a recovery to a target did (`INFO persistence`, `Db::recovery_stopped`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped {
    pub target: RecoveryTarget,
    /// LSN and time of the last record kept (0 with none).
    pub lsn: u64,
    pub time_ms: u64,
    /// Whether the log held a record past the target (and was cut there).
    pub past_target: bool,
}

impl RecoveryTarget {
    /// The target file of `dir`, if there is one; a file that does not parse stops the open.
    pub(crate) fn read(dir: &Path) -> Result<Option<RecoveryTarget>, StorageError> {
        let path = dir.join(TARGET_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(StorageError::io(format!("read {}", path.display()), e)),
        };
        RecoveryTarget::parse(&text).map(Some).map_err(|why| StorageError::InvalidOptions(format!("{}: {why}", path.display())))
    }

    pub fn parse(text: &str) -> Result<RecoveryTarget, String> {
        let mut target = RecoveryTarget { time_ms: None, lsn: None };
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let (name, value) = line.split_once('=').ok_or_else(|| format!("expected name=value, not {line:?}"))?;
            let value: u64 = value.trim().parse().map_err(|_| format!("{} must be a non-negative integer, not {:?}", name.trim(), value.trim()))?;
            let slot = match name.trim() {
                "time-ms" => &mut target.time_ms,
                "lsn" => &mut target.lsn,
                other => return Err(format!("unknown name {other:?} (time-ms, lsn)")),
            };
            if slot.replace(value).is_some() {
                return Err(format!("{} is given twice", name.trim()));
            }
        }
        if target.time_ms.is_none() && target.lsn.is_none() {
            return Err("names neither time-ms nor lsn".into());
        }
        Ok(target)
    }

    /// Whether the record with `lsn` and `time_ms` lies past the target.
    pub(crate) fn is_past(&self, lsn: u64, time_ms: u64) -> bool {
        self.time_ms.is_some_and(|t| time_ms > t) || self.lsn.is_some_and(|l| lsn > l)
    }
}

/// Cuts the log at `offset` of segment `path`, after removing the segments `later` (last
/// first, so a crash leaves no gap), each removal and the cut fsynced.
pub(crate) fn cut(dir: &Path, path: &Path, offset: u64, later: &[u32]) -> Result<(), StorageError> {
    for &seg in later.iter().rev() {
        let p = segment_path(dir, seg);
        std::fs::remove_file(&p).map_err(|e| StorageError::io(format!("remove {}", p.display()), e))?;
        sync_dir(dir)?;
    }
    let f = std::fs::OpenOptions::new().write(true).open(path).map_err(|e| StorageError::io(format!("open {}", path.display()), e))?;
    f.set_len(offset)
        .and_then(|_| f.sync_all())
        .map_err(|e| StorageError::io(format!("cut {} at the recovery target", path.display()), e))?;
    eprintln!("basalt-storage: recovery target reached: the log is cut at {} offset {offset}", path.display());
    Ok(())
}

/// Removes the target file once the log is cut and durable: the recovery is done.
pub(crate) fn finish(dir: &Path) -> Result<(), StorageError> {
    let path = dir.join(TARGET_FILE);
    std::fs::remove_file(&path).map_err(|e| StorageError::io(format!("remove {}", path.display()), e))?;
    sync_dir(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_file_forms() {
        let t = RecoveryTarget::parse("# restore\ntime-ms=1700000000000\n\n").unwrap();
        assert_eq!(t, RecoveryTarget { time_ms: Some(1_700_000_000_000), lsn: None });
        let t = RecoveryTarget::parse("lsn = 42\ntime-ms=5").unwrap();
        assert_eq!(t, RecoveryTarget { time_ms: Some(5), lsn: Some(42) });
        assert!(t.is_past(43, 5) && t.is_past(1, 6) && !t.is_past(42, 5));
        for bad in ["", "# nothing", "time-ms", "time-ms=-1", "time-ms=x", "lsn=1\nlsn=2", "when=1"] {
            assert!(RecoveryTarget::parse(bad).is_err(), "{bad:?}");
        }
    }
}
