//! The slow log (SLOWLOG GET/LEN/RESET): commands that ran longer than
//! `slowlog-log-slower-than` microseconds (negative: off; 0: every command), the newest
//! `slowlog-max-len` of them. Checking costs every command one relaxed load; only a slow
//! command takes the lock. Arguments are kept as Redis keeps them: at most 32 (the last says
//! how many more), each cut to 128 bytes (it says how many more), so a value is never kept in
//! full; the arguments of commands that carry passwords are not kept at all.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// Redis' defaults.
pub const DEFAULT_SLOWER_THAN_US: i64 = 10_000;
pub const DEFAULT_MAX_LEN: u64 = 128;
/// Redis' SLOWLOG_ENTRY_MAX_ARGC and SLOWLOG_ENTRY_MAX_STRING.
const MAX_ARGS: usize = 32;
const MAX_ARG_BYTES: usize = 128;
/// Commands whose arguments may hold a password: only their name (and subcommand) is kept.
const REDACTED: &[&[u8]] = &[b"auth", b"hello", b"acl", b"config", b"migrate"];

pub struct SlowEntry {
    pub id: u64,
    pub unix_secs: i64,
    pub usec: u64,
    pub args: Vec<Vec<u8>>,
    pub peer: String,
    pub name: String,
}

pub struct SlowLog {
    slower_than_us: AtomicI64,
    max_len: AtomicU64,
    next_id: AtomicU64,
    entries: Mutex<VecDeque<SlowEntry>>,
}

impl SlowLog {
    pub fn new(slower_than_us: i64, max_len: u64) -> SlowLog {
        SlowLog {
            slower_than_us: AtomicI64::new(slower_than_us),
            max_len: AtomicU64::new(max_len),
            next_id: AtomicU64::new(0),
            entries: Mutex::new(VecDeque::new()),
        }
    }

    /// Whether a command that ran `usec` belongs in the log (the hot path: one load).
    pub fn is_slow(&self, usec: u64) -> bool {
        let threshold = self.slower_than_us.load(Relaxed);
        threshold >= 0 && usec as i64 >= threshold
    }

    pub fn record(&self, args: &[&[u8]], usec: u64, peer: String, name: String) {
        let entry = SlowEntry {
            id: self.next_id.fetch_add(1, Relaxed),
            unix_secs: SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0),
            usec,
            args: kept_args(args),
            peer,
            name,
        };
        let max = self.max_len.load(Relaxed) as usize;
        let mut entries = self.lock();
        entries.push_front(entry);
        entries.truncate(max);
    }

    pub fn set_slower_than(&self, us: i64) {
        self.slower_than_us.store(us, Relaxed);
    }

    pub fn set_max_len(&self, len: u64) {
        self.max_len.store(len, Relaxed);
        self.lock().truncate(len as usize);
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn reset(&self) {
        self.lock().clear();
    }

    /// Runs `f` over the newest `count` entries (all of them for `None`), newest first.
    pub fn with_newest<R>(&self, count: Option<usize>, f: impl FnOnce(&mut dyn Iterator<Item = &SlowEntry>) -> R) -> R {
        let entries = self.lock();
        let n = count.unwrap_or(entries.len()).min(entries.len());
        f(&mut entries.iter().take(n))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<SlowEntry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The arguments as the log keeps them (Redis' `slowlogCreateEntry`).
fn kept_args(args: &[&[u8]]) -> Vec<Vec<u8>> {
    let name = args.first().map(|a| a.to_ascii_lowercase()).unwrap_or_default();
    if REDACTED.contains(&name.as_slice()) {
        // The name, the subcommand of a container (ACL SETUSER, CONFIG SET), then a marker.
        let shown = if name == b"auth" || name == b"hello" || name == b"migrate" { 1 } else { 2 };
        let mut kept: Vec<Vec<u8>> = args.iter().take(shown).map(|a| a.to_vec()).collect();
        if args.len() > shown {
            kept.push(b"(redacted)".to_vec());
        }
        return kept;
    }
    let shown = args.len().min(MAX_ARGS);
    (0..shown)
        .map(|i| {
            let arg = args[i];
            if shown != args.len() && i == shown - 1 {
                format!("... ({} more arguments)", args.len() - shown + 1).into_bytes()
            } else if arg.len() > MAX_ARG_BYTES {
                let mut cut = arg[..MAX_ARG_BYTES].to_vec();
                cut.extend_from_slice(format!("... ({} more bytes)", arg.len() - MAX_ARG_BYTES).as_bytes());
                cut
            } else {
                arg.to_vec()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_cut_as_redis_cuts_them() {
        let long = vec![b'v'; 200];
        let kept = kept_args(&[b"set", b"k", &long]);
        assert_eq!(kept[2], [vec![b'v'; 128], b"... (72 more bytes)".to_vec()].concat());
        let many: Vec<Vec<u8>> = (0..40).map(|i| format!("{i}").into_bytes()).collect();
        let refs: Vec<&[u8]> = many.iter().map(|a| a.as_slice()).collect();
        let kept = kept_args(&refs);
        assert_eq!(kept.len(), 32);
        assert_eq!(kept[31], b"... (9 more arguments)".to_vec());
        assert_eq!(kept_args(&[b"AUTH", b"u", b"secret"]), vec![b"AUTH".to_vec(), b"(redacted)".to_vec()]);
        assert_eq!(kept_args(&[b"config", b"set", b"requirepass", b"x"]), vec![b"config".to_vec(), b"set".to_vec(), b"(redacted)".to_vec()]);
    }

    #[test]
    fn keeps_the_newest_up_to_max_len() {
        let log = SlowLog::new(0, 2);
        for i in 0..3u64 {
            log.record(&[b"get", format!("k{i}").as_bytes()], i, "127.0.0.1:1".into(), String::new());
        }
        assert_eq!(log.len(), 2);
        let ids: Vec<u64> = log.with_newest(None, |it| it.map(|e| e.id).collect());
        assert_eq!(ids, vec![2, 1]);
        assert!(!SlowLog::new(-1, 2).is_slow(1_000_000));
        assert!(SlowLog::new(0, 2).is_slow(0));
    }
}
