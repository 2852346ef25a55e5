//! Lua scripting (EVAL, EVALSHA, SCRIPT): Lua 5.1 as Redis embeds it.
//!
//! - `mod.rs`     — [`Scripts`]: the script cache (by SHA1) and the state of the running
//!   script that SCRIPT KILL and the busy check read.
//! - `vm.rs`      — one Lua VM per network thread: the `redis` API, `KEYS`/`ARGV`, running a
//!   script alone and as one log record (its effects are what is logged, so a replay is
//!   deterministic whatever the script computes).
//! - `convert.rs` — replies between RESP and Lua values, as Redis converts them.
//! - `library.rs` — FUNCTION LOAD's `#!lua name=...` libraries and `redis.register_function`.
//! - `libs.rs`, `bit.rs`, `cjson.rs`, `cmsgpack.rs` — the extra libraries Redis' Lua has, in
//!   Rust.

pub mod bit;
pub mod cjson;
pub mod cmsgpack;
pub mod convert;
pub mod library;
pub mod libs;
pub mod vm;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::*};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

/// After this long (by default) a running script makes other clients' commands answer `-BUSY`
/// instead of waiting (Redis' `lua-time-limit`, `busy-reply-threshold`); SCRIPT KILL may stop
/// it then.
pub const BUSY_AFTER_MS: u64 = 5000;

pub struct Scripts {
    /// `lua-time-limit` in milliseconds (CONFIG SET changes it).
    pub busy_after_ms: AtomicU64,
    cache: Mutex<HashMap<String, Arc<str>>>,
    /// Bumped by SCRIPT FLUSH: each VM drops its compiled functions when it sees a new value.
    pub generation: AtomicU64,
    /// Unix ms the running script started at; 0 when none runs.
    pub running_since_ms: AtomicU64,
    /// SCRIPT KILL asked the running script to stop.
    pub kill: Arc<AtomicBool>,
    /// The running script has written (it can no longer be killed).
    pub wrote: AtomicBool,
    /// The running script may not write (EVAL_RO, FCALL_RO, a `no-writes` function).
    pub read_only: AtomicBool,
    /// FUNCTION LOAD's libraries by name.
    pub libraries: Mutex<BTreeMap<String, Library>>,
    /// Bumped when the libraries change: each VM loads them again when it sees a new value.
    pub library_generation: AtomicU64,
    /// DEBUG SET-DISABLE-DENY-SCRIPTS 1: scripts may call `noscript` commands (Redis' tests
    /// reach DEBUG PROTOCOL from Lua this way).
    pub deny_script_disabled: AtomicBool,
}

/// A library of functions (FUNCTION LOAD): its code, run again in each VM, and what it
/// registered.
#[derive(Clone, Debug)]
pub struct Library {
    pub code: String,
    pub functions: Vec<String>,
}

impl Default for Scripts {
    fn default() -> Self {
        Scripts {
            busy_after_ms: AtomicU64::new(BUSY_AFTER_MS),
            cache: Default::default(),
            generation: Default::default(),
            running_since_ms: Default::default(),
            kill: Default::default(),
            wrote: Default::default(),
            read_only: Default::default(),
            libraries: Default::default(),
            library_generation: Default::default(),
            deny_script_disabled: Default::default(),
        }
    }
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

impl Scripts {
    /// Caches `body`; returns its SHA1 in hex.
    pub fn add(&self, body: &[u8]) -> String {
        let sha = sha1_hex(body);
        let text: Arc<str> = Arc::from(String::from_utf8_lossy(body).as_ref());
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).entry(sha.clone()).or_insert(text);
        sha
    }

    /// The script with this SHA1 (any case).
    pub fn get(&self, sha: &[u8]) -> Option<Arc<str>> {
        let sha = String::from_utf8_lossy(sha).to_ascii_lowercase();
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(&sha).cloned()
    }

    pub fn flush(&self) {
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).clear();
        self.generation.fetch_add(1, Relaxed);
    }

    /// A script has run past `BUSY_AFTER_MS`.
    pub fn busy(&self) -> bool {
        let since = self.running_since_ms.load(Acquire);
        since != 0 && now_ms().saturating_sub(since) >= self.busy_after_ms.load(Relaxed)
    }

    /// A script runs at all.
    pub fn running(&self) -> bool {
        self.running_since_ms.load(Acquire) != 0
    }

    pub(crate) fn start(&self) {
        self.kill.store(false, Relaxed);
        self.wrote.store(false, Relaxed);
        self.running_since_ms.store(now_ms().max(1), Release);
    }

    pub(crate) fn stop(&self) {
        self.running_since_ms.store(0, Release);
        self.kill.store(false, Relaxed);
    }
}

/// SHA1 of `data` in lowercase hex (script names, `redis.sha1hex`).
pub fn sha1_hex(data: &[u8]) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY, data);
    digest.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}
