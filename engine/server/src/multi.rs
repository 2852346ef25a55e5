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
use std::sync::atomic::Ordering::Acquire;
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
        self.flag.load(Acquire) || self.keys.iter().any(|(index, key, live)| *live && db.keyspace(*index).is_stale(key))
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

pub fn enter(shared: &Shared) -> RunGuard<'_> {
    if HELD.with(Cell::get) {
        RunGuard::Nested
    } else {
        RunGuard::Shared(shared.exclusive.read().unwrap_or_else(|e| e.into_inner()))
    }
}

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
