//! Capture of several changes into one log record (EXEC, EVAL): while [`Db::atomically`]
//! runs on a thread, every change that thread commits is applied in memory at once but its
//! ops go into one record, appended when the closure returns. A crash therefore keeps all of
//! a transaction or none of it.
//!
//! Until that record is appended, the changed items point at `PENDING_SEG`: their values are
//! resident and never evicted (their LSN is beyond any written one), and compaction never
//! matches them. After the append, each put's item gets its real place in the log.
//!
//! [`Db::atomically`]: crate::Db::atomically

use crate::codec::RecordBuf;
use bytes::Bytes;
use std::cell::RefCell;

pub(crate) const PENDING_SEG: u32 = u32::MAX;
pub(crate) const PENDING_LSN: u64 = u64::MAX;

/// A put whose item must learn its place once the record is appended.
pub(crate) struct PendingPut {
    /// Shard position within its database (the key's hash; the database may change by SWAPDB
    /// or MOVE before the record is appended).
    pub slot: usize,
    pub key: Bytes,
    /// Offset of the value within the captured record.
    pub at: u64,
}

pub(crate) struct Capture {
    pub rec: RecordBuf,
    pub puts: Vec<PendingPut>,
}

thread_local! {
    static CAPTURE: RefCell<Option<Capture>> = const { RefCell::new(None) };
}

pub(crate) fn active() -> bool {
    CAPTURE.with(|c| c.borrow().is_some())
}

pub(crate) fn begin() {
    CAPTURE.with(|c| *c.borrow_mut() = Some(Capture { rec: RecordBuf::new(), puts: Vec::new() }));
}

pub(crate) fn end() -> Option<Capture> {
    CAPTURE.with(|c| c.borrow_mut().take())
}

/// Adds the ops of `rec` to the capture of this thread; returns what to add to a position in
/// `rec.buf` to get its position in the captured record, or None when nothing is captured.
pub(crate) fn absorb(rec: &RecordBuf) -> Option<usize> {
    CAPTURE.with(|c| c.borrow_mut().as_mut().map(|cap| cap.rec.absorb(rec)))
}

pub(crate) fn note_put(put: PendingPut) {
    CAPTURE.with(|c| {
        if let Some(cap) = c.borrow_mut().as_mut() {
            cap.puts.push(put);
        }
    })
}
