//! Transactions: the MULTI queue and the WATCHed keys of one connection, and the lock that
//! makes EXEC (and scripts) run alone.
//!
//! Every command runs holding `Shared::exclusive` for reading; EXEC takes it for writing, so
//! no other connection's command interleaves with a transaction's. The commands inside run
//! on the same thread with `HELD` set, so they do not take the lock again. The storage puts
//! all their changes in one log record (`Db::atomically`).

use crate::resp::OwnedArgs;
use crate::server::Shared;
use basalt_storage::{Db, WatchFlag};
use bytes::Bytes;
use std::cell::Cell;
use std::sync::{RwLockReadGuard, RwLockWriteGuard};

/// Commands that run at once inside MULTI instead of being queued (as in Redis).
pub const RUN_IN_MULTI: &[&str] = &["exec", "discard", "multi", "watch", "quit", "reset"];

/// A connection between MULTI and EXEC/DISCARD.
#[derive(Default)]
pub struct MultiState {
    pub queued: Vec<OwnedArgs>,
    /// A command was refused while queueing (unknown, arity, ACL): EXEC answers EXECABORT.
    pub aborted: bool,
}

/// The keys a connection WATCHes and the flag any change of them sets.
pub struct Watching {
    pub flag: WatchFlag,
    /// (database, key, whether it existed and was live when watched).
    pub keys: Vec<(usize, Bytes, bool)>,
}

impl Watching {
    pub fn new() -> Watching {
        Watching { flag: WatchFlag::default(), keys: Vec::new() }
    }

    /// Whether EXEC must fail: a watched key changed, or one that was live has expired since.
    pub fn is_dirty(&self, db: &Db) -> bool {
        self.flag.is_dirty() || self.keys.iter().any(|(index, key, live)| *live && db.keyspace(*index).is_stale(key))
    }

    /// Stops watching every key.
    pub fn release(self, db: &Db) {
        for (index, key, _) in &self.keys {
            db.unwatch(*index, key, &self.flag);
        }
    }
}

impl Default for Watching {
    fn default() -> Self {
        Watching::new()
    }
}

thread_local! {
    /// This thread holds `Shared::exclusive` for writing (inside EXEC or a script).
    static HELD: Cell<bool> = const { Cell::new(false) };
}

/// What a command holds while it runs: the shared side of the lock, or nothing when the
/// thread is already inside a transaction.
pub enum RunGuard<'a> {
    Shared(#[allow(dead_code)] RwLockReadGuard<'a, ()>),
    Nested,
}

/// Takes the shared side of the run lock for a command. While a script has run past its
/// time limit, a command answers BUSY instead of waiting, and one allowed when busy (SCRIPT
/// KILL) runs without the lock.
pub fn enter(shared: &Shared, allow_busy: bool) -> Result<RunGuard<'_>, Busy> {
    if HELD.with(Cell::get) {
        return Ok(RunGuard::Nested);
    }
    if !shared.scripts.running() {
        return Ok(RunGuard::Shared(shared.exclusive.read().unwrap_or_else(|e| e.into_inner())));
    }
    blocking(|| loop {
        match shared.exclusive.try_read() {
            Ok(guard) => return Ok(RunGuard::Shared(guard)),
            Err(std::sync::TryLockError::Poisoned(e)) => return Ok(RunGuard::Shared(e.into_inner())),
            Err(std::sync::TryLockError::WouldBlock) => {}
        }
        if shared.scripts.busy() {
            return if allow_busy { Ok(RunGuard::Nested) } else { Err(Busy) };
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    })
}

/// Runs `f`, which may block its thread for long (a script, a wait behind one), so that the
/// network runtime goes on without this thread: on the multi-thread runtime the thread's
/// other tasks move to another (`block_in_place`); elsewhere (tests' current-thread
/// runtimes, plain threads) `f` just runs.
pub fn blocking<R>(f: impl FnOnce() -> R) -> R {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == RuntimeFlavor::MultiThread => tokio::task::block_in_place(f),
        _ => f(),
    }
}

/// The store's [`Options::blocking_io`](basalt_storage::Options): a read of a cold value that
/// waits for the device runs through [`blocking`], so the other connections of its network
/// thread go on meanwhile.
pub fn blocking_io(section: &mut dyn FnMut()) {
    blocking(section)
}

/// A script is running past its time limit.
pub struct Busy;

pub const BUSY_TEXT: &str = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";

/// Runs `f` with every other command held off (EXEC, EVAL).
pub fn alone<R>(shared: &Shared, f: impl FnOnce() -> R) -> R {
    if HELD.with(Cell::get) {
        return f();
    }
    let guard: RwLockWriteGuard<'_, ()> = shared.exclusive.write().unwrap_or_else(|e| e.into_inner());
    struct Release;
    impl Drop for Release {
        fn drop(&mut self) {
            HELD.with(|h| h.set(false));
        }
    }
    HELD.with(|h| h.set(true));
    let release = Release;
    let r = f();
    drop(release);
    drop(guard);
    r
}

/// Whether the current thread runs inside EXEC or a script.
pub fn in_transaction() -> bool {
    HELD.with(Cell::get)
}
