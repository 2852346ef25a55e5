//! The replication backlog: the last `capacity` bytes of the replication stream (the records
//! the log appended, in order), with the stream offsets they cover. A replica that reconnects
//! with an offset still inside it continues from there; one further behind needs a full copy.

use std::collections::VecDeque;

pub struct Backlog {
    buf: VecDeque<u8>,
    capacity: usize,
    /// Stream offset of `buf[0]`.
    start: u64,
}

impl Backlog {
    pub fn new(capacity: usize, offset: u64) -> Backlog {
        Backlog { buf: VecDeque::new(), capacity, start: offset }
    }

    /// Offset after the last byte.
    pub fn end(&self) -> u64 {
        self.start + self.buf.len() as u64
    }

    /// Offset of the first byte still held.
    pub fn start(&self) -> u64 {
        self.start
    }

    pub fn len(&self) -> usize {
        self.buf.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    pub fn push(&mut self, data: &[u8]) {
        self.buf.extend(data);
        let excess = self.buf.len().saturating_sub(self.capacity);
        if excess > 0 {
            self.buf.drain(..excess);
            self.start += excess as u64;
        }
    }

    /// The stream moved on by `len` bytes that are not kept (no replica reads this node yet).
    pub fn skip(&mut self, len: usize) {
        let end = self.end() + len as u64;
        self.reset(end);
    }

    /// Forgets everything; the stream goes on at `offset` (after a full copy, at start).
    pub fn reset(&mut self, offset: u64) {
        self.buf.clear();
        self.start = offset;
    }

    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
        self.push(&[]);
    }

    /// Whether the stream from `offset` on can be served from here.
    pub fn covers(&self, offset: u64) -> bool {
        offset >= self.start && offset <= self.end()
    }

    /// Up to `max` bytes from `offset` (which `covers` must accept).
    pub fn read(&self, offset: u64, max: usize, out: &mut Vec<u8>) {
        let from = (offset - self.start) as usize;
        let to = self.buf.len().min(from + max);
        let (a, b) = self.buf.as_slices();
        if from < a.len() {
            out.extend_from_slice(&a[from..to.min(a.len())]);
        }
        if to > a.len() {
            out.extend_from_slice(&b[from.saturating_sub(a.len())..to - a.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_capacity_bytes() {
        let mut b = Backlog::new(8, 100);
        b.push(b"abcdef");
        b.push(b"ghij");
        assert_eq!((b.start(), b.end()), (102, 110));
        assert!(!b.covers(101) && b.covers(102) && b.covers(110) && !b.covers(111));
        let mut out = Vec::new();
        b.read(104, 100, &mut out);
        assert_eq!(out, b"efghij");
        out.clear();
        b.read(103, 3, &mut out);
        assert_eq!(out, b"def");
    }

    #[test]
    fn skipped_bytes_move_the_offset_and_are_not_served() {
        let mut b = Backlog::new(8, 100);
        b.push(b"abc");
        b.skip(5);
        assert_eq!((b.start(), b.end()), (108, 108));
        assert!(!b.covers(103) && b.covers(108));
        b.push(b"xy");
        let mut out = Vec::new();
        b.read(108, 100, &mut out);
        assert_eq!(out, b"xy");
    }
}
