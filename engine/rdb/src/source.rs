//! [`Source`]: the reader's view of the file. It buffers any `Read` (the file is never read
//! whole), counts the offset every error names, keeps the CRC64 of everything consumed, and
//! refuses to go past a byte limit. Strings grow as their bytes arrive, so a hostile length
//! ends in "truncated" after allocating no more than the file holds.

use crate::error::RdbError;
use crc::{Crc, Digest, Table, CRC_64_REDIS};
use std::io::{ErrorKind, Read};

/// Redis' CRC64 (Jones polynomial, reflected, no final xor), 16 tables: ~3 GB/s here.
pub(crate) static CRC64: Crc<u64, Table<16>> = Crc::<u64, Table<16>>::new(&CRC_64_REDIS);

const BUF_BYTES: usize = 64 << 10;
/// A string is allocated in pieces of at most this much as its bytes are read.
const GROW_BYTES: usize = 1 << 20;

pub(crate) struct Source<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    /// `buf[crc_from..pos]` is consumed but not yet in `digest`.
    crc_from: usize,
    digest: Digest<'static, u64, Table<16>>,
    /// File offset of `buf[0]`.
    base: u64,
    limit: u64,
}

impl<R: Read> Source<R> {
    pub fn new(inner: R, limit: u64) -> Source<R> {
        Source {
            inner,
            buf: vec![0u8; BUF_BYTES].into_boxed_slice(),
            pos: 0,
            end: 0,
            crc_from: 0,
            digest: CRC64.digest(),
            base: 0,
            limit,
        }
    }

    /// Offset of the next byte to be consumed.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Refills an empty buffer; false at the end of the input.
    fn fill(&mut self) -> Result<bool, RdbError> {
        debug_assert_eq!(self.pos, self.end);
        self.digest.update(&self.buf[self.crc_from..self.pos]);
        self.base += self.end as u64;
        self.pos = 0;
        self.end = 0;
        self.crc_from = 0;
        if self.base >= self.limit {
            // One byte past the limit tells a file of exactly `limit` bytes from a larger one.
            let mut probe = [0u8; 1];
            return match self.read_inner(&mut probe)? {
                0 => Ok(false),
                _ => Err(RdbError::TooLarge { offset: self.base, limit: self.limit }),
            };
        }
        let room = (self.limit - self.base).min(BUF_BYTES as u64) as usize;
        let mut buf = std::mem::take(&mut self.buf);
        let n = self.read_inner(&mut buf[..room]);
        self.buf = buf;
        self.end = n?;
        Ok(self.end > 0)
    }

    fn read_inner(&mut self, into: &mut [u8]) -> Result<usize, RdbError> {
        loop {
            match self.inner.read(into) {
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(RdbError::io(format!("read the RDB at offset {}", self.base), e)),
            }
        }
    }

    fn truncated(&self, reading: &'static str) -> RdbError {
        RdbError::Truncated { offset: self.offset(), reading }
    }

    pub fn read_u8(&mut self, reading: &'static str) -> Result<u8, RdbError> {
        if self.pos == self.end && !self.fill()? {
            return Err(self.truncated(reading));
        }
        let b = self.buf[self.pos];
        self.pos += 1;
        Ok(b)
    }

    pub fn read_exact(&mut self, out: &mut [u8], reading: &'static str) -> Result<(), RdbError> {
        let mut done = 0;
        while done < out.len() {
            if self.pos == self.end && !self.fill()? {
                return Err(self.truncated(reading));
            }
            let n = (self.end - self.pos).min(out.len() - done);
            out[done..done + n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
            self.pos += n;
            done += n;
        }
        Ok(())
    }

    pub fn read_array<const N: usize>(&mut self, reading: &'static str) -> Result<[u8; N], RdbError> {
        let mut out = [0u8; N];
        self.read_exact(&mut out, reading)?;
        Ok(out)
    }

    /// `len` bytes, allocated as they arrive; refused past `max` (a per-string bound).
    pub fn read_vec(&mut self, len: u64, max: u64, reading: &'static str) -> Result<Vec<u8>, RdbError> {
        if len > max {
            return Err(RdbError::corrupt(self.offset(), format!("{reading} of {len} bytes, more than the {max} allowed")));
        }
        if self.offset().saturating_add(len) > self.limit {
            return Err(RdbError::TooLarge { offset: self.offset(), limit: self.limit });
        }
        let len = len as usize;
        let mut out = Vec::with_capacity(len.min(GROW_BYTES));
        while out.len() < len {
            if self.pos == self.end && !self.fill()? {
                return Err(self.truncated(reading));
            }
            let n = (self.end - self.pos).min(len - out.len());
            out.extend_from_slice(&self.buf[self.pos..self.pos + n]);
            self.pos += n;
        }
        Ok(out)
    }

    /// The CRC64 of everything consumed so far.
    pub fn checksum(&mut self) -> u64 {
        self.digest.update(&self.buf[self.crc_from..self.pos]);
        self.crc_from = self.pos;
        self.digest.clone().finalize()
    }
}
