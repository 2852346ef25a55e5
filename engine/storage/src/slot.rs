//! What `Db::update` and `Db::batch` closures see: the current entry of a key (expired keys
//! already gone, cold values already loaded) and methods that record whether it changed.
//! Only changed keys are logged; a collection left empty deletes its key, as in Redis.

use crate::delta::{self, Delta, Encoded, Outcome};
use crate::value::Entry;
use bytes::Bytes;
use std::collections::HashMap;

/// One key inside `Db::update`.
pub struct Slot<'a> {
    pub(crate) key: &'a [u8],
    pub(crate) entry: &'a mut Option<Entry>,
    /// The whole entry changed (put, remove, get_mut): it is logged whole.
    pub(crate) dirty: bool,
    pub(crate) now_ms: u64,
    /// Element-level changes made by [`Slot::apply`] while not `dirty`, encoded as the log
    /// holds them (the changes themselves were moved into the value).
    pub(crate) deltas: Encoded,
    /// Change of the value's memory size made by those deltas.
    pub(crate) mem: i64,
    /// Growth of the value's whole encoding made by those deltas (`Outcome::grew`, summed).
    pub(crate) grew: u64,
}

impl<'a> Slot<'a> {
    /// Applies an element-level change to the collection the key holds, through the same
    /// function replay uses. The write is then logged as its deltas, at the cost of the change,
    /// unless the entry is also replaced or changed whole in this closure (then it is logged
    /// whole). None when the key is missing or holds another type (check the type first; to
    /// create a collection, `put` an empty one and apply to it).
    pub fn apply(&mut self, change: Delta) -> Option<Outcome> {
        let entry = self.entry.as_mut()?;
        let mark = self.deltas.body.len();
        if !self.dirty {
            delta::encode_one(&change, &mut self.deltas.body);
        }
        let out = delta::apply(&mut entry.value, change);
        match &out {
            Some(out) if out.changed && !self.dirty => {
                self.mem += out.mem;
                self.grew = self.grew.saturating_add(out.grew);
                self.deltas.ops += 1;
            }
            // Nothing changed (or the entry is logged whole): nothing of it is logged.
            _ => self.deltas.body.truncate(mark),
        }
        out
    }

    pub fn key(&self) -> &[u8] {
        self.key
    }

    /// The time expiry was judged against (unix ms); use it to compute TTLs.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    pub fn get(&self) -> Option<&Entry> {
        self.entry.as_ref()
    }

    /// Mutable access; the key is logged after the closure (even if nothing really changed).
    pub fn get_mut(&mut self) -> Option<&mut Entry> {
        if self.entry.is_some() {
            self.dirty = true;
        }
        self.entry.as_mut()
    }

    /// Replaces the entry; returns the old one.
    pub fn put(&mut self, entry: Entry) -> Option<Entry> {
        self.dirty = true;
        self.entry.replace(entry)
    }

    /// Deletes the key; returns the old entry.
    pub fn remove(&mut self) -> Option<Entry> {
        let old = self.entry.take();
        if old.is_some() {
            self.dirty = true;
        }
        old
    }

    /// Sets or clears the expiry of an existing key; false if the key does not exist.
    pub fn set_expiry(&mut self, expires_at_ms: Option<u64>) -> bool {
        match self.entry.as_mut() {
            Some(e) => {
                if e.expires_at_ms != expires_at_ms {
                    e.expires_at_ms = expires_at_ms;
                    self.dirty = true;
                }
                true
            }
            None => false,
        }
    }
}

/// Several keys inside `Db::batch`, changed atomically (one log record). Every key used must
/// be among the keys passed to `batch`; another key panics, as a programming error.
pub struct Txn {
    pub(crate) keys: Vec<Bytes>,
    pub(crate) entries: Vec<Option<Entry>>,
    pub(crate) existed: Vec<bool>,
    pub(crate) dirty: Vec<bool>,
    pub(crate) index: HashMap<Bytes, usize>,
    pub(crate) now_ms: u64,
}

impl Txn {
    fn at(&self, key: &[u8]) -> usize {
        match self.index.get(key) {
            Some(&i) => i,
            None => panic!("Txn: key {:?} was not declared to Db::batch", String::from_utf8_lossy(key)),
        }
    }

    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// The distinct keys of the batch, in first-seen order.
    pub fn keys(&self) -> &[Bytes] {
        &self.keys
    }

    pub fn get(&self, key: &[u8]) -> Option<&Entry> {
        self.entries[self.at(key)].as_ref()
    }

    pub fn get_mut(&mut self, key: &[u8]) -> Option<&mut Entry> {
        let i = self.at(key);
        if self.entries[i].is_some() {
            self.dirty[i] = true;
        }
        self.entries[i].as_mut()
    }

    pub fn put(&mut self, key: &[u8], entry: Entry) -> Option<Entry> {
        let i = self.at(key);
        self.dirty[i] = true;
        self.entries[i].replace(entry)
    }

    pub fn remove(&mut self, key: &[u8]) -> Option<Entry> {
        let i = self.at(key);
        let old = self.entries[i].take();
        if old.is_some() {
            self.dirty[i] = true;
        }
        old
    }
}
