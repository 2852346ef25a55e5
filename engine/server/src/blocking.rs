//! Blocking commands (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH): a command that finds nothing asks to
//! block (`Ctx::block`) instead of replying; the connection then stops reading further
//! commands, waits for a change of one of the keys (through the same watch flags as WATCH,
//! which wake the task) or the timeout, and runs the command again. The last run after the
//! timeout may not block and gives the command's timeout reply. Inside MULTI and scripts the
//! commands never block, as in Redis.

use crate::error::CmdError;
use bytes::Bytes;
use std::time::{Duration, Instant};

/// What a blocked command waits for.
pub struct BlockRequest {
    /// (database, key) whose change may let the command proceed.
    pub keys: Vec<(usize, Bytes)>,
    /// None: wait forever (timeout 0).
    pub deadline: Option<Instant>,
}

/// A timeout argument in seconds (fractions allowed), as Redis parses it: 0 means forever.
pub fn parse_timeout(arg: &[u8]) -> Result<Option<Duration>, CmdError> {
    let text = std::str::from_utf8(arg).map_err(|_| CmdError::msg("ERR timeout is not a float or out of range"))?;
    let secs: f64 = text.trim().parse().map_err(|_| CmdError::msg("ERR timeout is not a float or out of range"))?;
    if !secs.is_finite() || secs > 1e12 {
        return Err(CmdError::msg("ERR timeout is not a float or out of range"));
    }
    if secs < 0.0 {
        return Err(CmdError::msg("ERR timeout is negative"));
    }
    Ok(if secs == 0.0 { None } else { Some(Duration::from_secs_f64(secs)) })
}

/// Connections parked in a blocking command now (`blocked_clients` of INFO clients).
static BLOCKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Counts a connection as blocked while it lives.
pub struct Blocked(());

impl Blocked {
    pub fn enter() -> Blocked {
        BLOCKED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Blocked(())
    }
}

impl Drop for Blocked {
    fn drop(&mut self) {
        BLOCKED.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// How many connections are blocked.
pub fn blocked_count() -> usize {
    BLOCKED.load(std::sync::atomic::Ordering::Relaxed)
}
