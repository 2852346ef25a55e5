//! WATCH support: connections register interest in (database, key) with a dirty flag; every
//! change of a watched key (a write, a delete, an expiry, a FLUSHDB/FLUSHALL/SWAPDB that
//! affects it) sets the flag, and EXEC refuses to run once it is set. When nobody watches,
//! a change costs one atomic load.

use bytes::Bytes;
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::*};
use std::sync::{Arc, Mutex};
use std::task::{Poll, Waker};

/// The dirty flag of one connection's WATCHes (shared by all its watched keys), which also
/// wakes a task waiting for a change (a client blocked in BLPOP).
#[derive(Default)]
pub struct Watcher {
    dirty: AtomicBool,
    waker: Mutex<Option<Waker>>,
}

pub type WatchFlag = Arc<Watcher>;

impl Watcher {
    pub fn is_dirty(&self) -> bool {
        self.dirty.load(Acquire)
    }

    /// Whether a change happened since the last call; clears the flag.
    pub fn take_dirty(&self) -> bool {
        self.dirty.swap(false, AcqRel)
    }

    fn touch(&self) {
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

#[derive(Default)]
pub(crate) struct Watches {
    /// Registrations; checked before taking the lock.
    count: AtomicUsize,
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
