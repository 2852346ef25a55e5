//! What the reads of a command saw: the LSN of the last logged change to each key it read
//! (for a key it did not find, the log's end, since a removal leaves nothing to ask). A reply
//! that waits for this LSN to be durable never shows a change a crash could take back, and
//! waits for nothing when every key it read was durable: a GET beside other clients' SETs
//! under `fsync always` no longer waits for their group commit (Redis answers every client
//! of an event loop turn after that turn's fsync).
//!
//! Noted per thread by [`Keyspace::read`](crate::Keyspace::read); a command runs on one
//! thread without yielding, so the caller takes the note before and after it.

use crate::Lsn;
use std::cell::Cell;

thread_local! {
    static SEEN: Cell<Lsn> = const { Cell::new(0) };
}

pub(crate) fn note(lsn: Lsn) {
    SEEN.with(|s| s.set(s.get().max(lsn)));
}

/// The highest LSN noted on this thread since the last call, and starts again from 0.
/// `Lsn::MAX` means "the log's end" (a change of a transaction not yet logged).
pub fn take() -> Lsn {
    SEEN.with(|s| s.replace(0))
}
