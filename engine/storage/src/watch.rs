//! WATCH support: connections register interest in (database, key) with a dirty flag; every
//! change of a watched key (a write, a delete, an expiry, a FLUSHDB/FLUSHALL/SWAPDB that
//! affects it) sets the flag, and EXEC refuses to run once it is set. When nobody watches,
//! a change costs one atomic load.
//!
//! A blocked connection (BLPOP, BZMPOP...) waits on the same flags, with a turn: see
//! [`BlockedTurns`].

use bytes::Bytes;
use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::*};
use std::sync::{Arc, Mutex};
use std::task::{Poll, Waker};

/// The dirty flag of one connection's WATCHes (shared by all its watched keys), which also
/// wakes a task waiting for a change (a client blocked in BLPOP).
#[derive(Default)]
pub struct Watcher {
    dirty: AtomicBool,
    waker: Mutex<Option<Waker>>,
    /// A blocked connection's place among the blocked ones; None for WATCH.
    turn: Option<(u64, Arc<BlockedTurns>)>,
}

pub type WatchFlag = Arc<Watcher>;

impl Watcher {
    /// The flag of a connection that blocks now: it is served after those that blocked before.
    pub fn blocked(turns: &Arc<BlockedTurns>) -> WatchFlag {
        let number = turns.next.fetch_add(1, Relaxed);
        Arc::new(Watcher { dirty: AtomicBool::new(false), waker: Mutex::new(None), turn: Some((number, turns.clone())) })
    }

    /// Resolves when no connection that blocked before this one has a change to look at
    /// (at once for WATCH flags).
    pub fn my_turn(&self) -> impl Future<Output = ()> + '_ {
        if let Some((number, turns)) = &self.turn {
            turns.state().ready.insert(*number);
        }
        std::future::poll_fn(move |cx| {
            let Some((number, turns)) = &self.turn else { return Poll::Ready(()) };
            let mut state = turns.state();
            if state.ready.first() == Some(number) {
                state.wakers.remove(number);
                Poll::Ready(())
            } else {
                state.wakers.insert(*number, cx.waker().clone());
                Poll::Pending
            }
        })
    }

    /// The blocked connection looked at the change (served or not); the next one may.
    pub fn turn_done(&self) {
        if let Some((number, turns)) = &self.turn {
            turns.done(*number);
        }
    }

    pub fn is_dirty(&self) -> bool {
        self.dirty.load(Acquire)
    }

    /// Whether a change happened since the last call; clears the flag.
    pub fn take_dirty(&self) -> bool {
        self.dirty.swap(false, AcqRel)
    }

    fn touch(&self) {
        // Marked ready while the writer still holds the watch list, so every connection woken
        // by one change is ready before any of them runs.
        if let Some((number, turns)) = &self.turn {
            turns.state().ready.insert(*number);
            WOKEN.with(|woken| {
                if let Some(woken) = woken.borrow_mut().as_mut() {
                    woken.push(*number);
                }
            });
        }
        self.dirty.store(true, Release);
        if let Some(waker) = self.waker.lock().unwrap_or_else(|e| e.into_inner()).take() {
            waker.wake();
        }
    }

    /// Resolves once a watched key changed (immediately if one already did).
    pub fn changed(&self) -> impl Future<Output = ()> + '_ {
        std::future::poll_fn(move |cx| {
            if self.is_dirty() {
                return Poll::Ready(());
            }
            *self.waker.lock().unwrap_or_else(|e| e.into_inner()) = Some(cx.waker().clone());
            // Checked again after registering, so a touch in between is not lost.
            if self.is_dirty() {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.turn_done();
    }
}

/// The order in which blocked connections look at a change: each takes a number when it
/// blocks; a change of a key marks the connections waiting on it ready, and a ready one runs
/// its command again only once every ready one with a lower number has (Redis serves the
/// clients blocked on a key in the order they blocked; without this they raced, and which one
/// got the elements depended on thread scheduling).
///
/// And a command that wakes blocked connections replies only once they looked at its change
/// ([`BlockedTurns::settled`]): as in Redis, when LPUSH answers, the client blocked on the list
/// has been served (a WATCH on its BRPOPLPUSH destination sees the push, a LLEN after the LPUSH
/// sees the pop).
#[derive(Default)]
pub struct BlockedTurns {
    next: AtomicU64,
    state: Mutex<TurnState>,
}

#[derive(Default)]
struct TurnState {
    ready: BTreeSet<u64>,
    wakers: HashMap<u64, Waker>,
    /// Commands waiting for the connections they woke ([`BlockedTurns::settled`]).
    settling: Vec<Waker>,
}

thread_local! {
    /// The blocked connections the running command woke, while [`collect_woken`] collects them.
    static WOKEN: std::cell::RefCell<Option<Vec<u64>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `command` and returns, with its result, the blocked connections its writes woke (a
/// change marks them ready in the thread that makes it, inside the command).
pub fn collect_woken<R>(command: impl FnOnce() -> R) -> (R, Vec<u64>) {
    let outer = WOKEN.with(|woken| woken.borrow_mut().replace(Vec::new()));
    let result = command();
    let mine = WOKEN.with(|woken| std::mem::replace(&mut *woken.borrow_mut(), outer)).unwrap_or_default();
    if !mine.is_empty() {
        // A command run inside another (a script's redis.call) woke them for the outer one too.
        WOKEN.with(|woken| {
            if let Some(outer) = woken.borrow_mut().as_mut() {
                outer.extend_from_slice(&mine);
            }
        });
    }
    (result, mine)
}

impl BlockedTurns {
    fn state(&self) -> std::sync::MutexGuard<'_, TurnState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn done(&self, number: u64) {
        let mut state = self.state();
        state.ready.remove(&number);
        state.wakers.remove(&number);
        let next = state.ready.first().copied();
        let mut wake: Vec<Waker> = std::mem::take(&mut state.settling);
        wake.extend(next.and_then(|n| state.wakers.remove(&n)));
        drop(state);
        for waker in wake {
            waker.wake();
        }
    }

    /// Resolves once none of `woken` (connections a command woke) is still to look at the
    /// change: they were served, or found nothing and wait on, or went away.
    pub fn settled<'a>(&'a self, woken: &'a [u64]) -> impl Future<Output = ()> + 'a {
        std::future::poll_fn(move |cx| {
            let mut state = self.state();
            if woken.iter().all(|n| !state.ready.contains(n)) {
                Poll::Ready(())
            } else {
                state.settling.push(cx.waker().clone());
                Poll::Pending
            }
        })
    }
}

#[derive(Default)]
pub(crate) struct Watches {
    /// Registrations; checked before taking the lock.
    count: AtomicUsize,
    pub turns: Arc<BlockedTurns>,
    by_key: Mutex<HashMap<Bytes, Vec<(usize, WatchFlag)>>>,
}

impl Watches {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Bytes, Vec<(usize, WatchFlag)>>> {
        self.by_key.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn add(&self, db: usize, key: &[u8], flag: &WatchFlag) {
        let mut map = self.lock();
        let list = map.entry(Bytes::copy_from_slice(key)).or_default();
        if !list.iter().any(|(d, f)| *d == db && Arc::ptr_eq(f, flag)) {
            list.push((db, flag.clone()));
            self.count.fetch_add(1, Relaxed);
        }
    }

    pub fn remove(&self, db: usize, key: &[u8], flag: &WatchFlag) {
        let mut map = self.lock();
        let Some(list) = map.get_mut(key) else { return };
        let before = list.len();
        list.retain(|(d, f)| !(*d == db && Arc::ptr_eq(f, flag)));
        self.count.fetch_sub(before - list.len(), Relaxed);
        if list.is_empty() {
            map.remove(key);
        }
    }

    pub fn any(&self) -> bool {
        self.count.load(Relaxed) != 0
    }

    /// `key` of database `db` changed.
    pub fn touch(&self, db: usize, key: &[u8]) {
        if !self.any() {
            return;
        }
        if let Some(list) = self.lock().get(key) {
            for (d, f) in list {
                if *d == db {
                    f.touch();
                }
            }
        }
    }

    /// The watched keys of the databases `dbs` for which `affected(db, key)` holds are touched
    /// (FLUSHDB, FLUSHALL, SWAPDB: only keys that exist count as changed, as in Redis).
    pub fn touch_where(&self, affected: impl Fn(usize, &[u8]) -> bool) {
        if !self.any() {
            return;
        }
        for (key, list) in self.lock().iter() {
            for (d, f) in list {
                if affected(*d, key) {
                    f.touch();
                }
            }
        }
    }
}
