//! [`Writer`]: an RDB file of version 10 that Redis 7.0 loads, in the simplest encodings it
//! takes: STRING, LIST, SET, HASH (Redis packs the small ones itself as it loads them), ZSET_2
//! (binary scores) and STREAM_LISTPACKS_2; expiries in ms; SELECTDB and RESIZEDB per database;
//! EOF and the CRC64 of every byte before it.

use crate::error::RdbError;
use crate::format::*;
use crate::source::CRC64;
use basalt_storage::Value;
use crc::{Digest, Table};
use std::io::Write;

pub struct Writer<W: Write> {
    out: W,
    digest: Digest<'static, u64, Table<16>>,
    written: u64,
}

impl<W: Write> Writer<W> {
    /// Writes the header and AUX fields saying who wrote the file and when.
    pub fn new(out: W) -> Result<Writer<W>, RdbError> {
        let mut w = Writer { out, digest: CRC64.digest(), written: 0 };
        w.raw(format!("REDIS{WRITE_VERSION:04}").as_bytes())?;
        w.aux(b"redis-bits", b"64")?;
        let ctime = basalt_storage::now_ms() / 1000;
        w.aux(b"ctime", ctime.to_string().as_bytes())?;
        w.aux(b"basalt-rdb-ver", env!("CARGO_PKG_VERSION").as_bytes())?;
        Ok(w)
    }

    /// Bytes written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    pub(crate) fn raw(&mut self, bytes: &[u8]) -> Result<(), RdbError> {
        self.digest.update(bytes);
        self.written += bytes.len() as u64;
        self.out.write_all(bytes).map_err(|e| RdbError::io("write the RDB", e))
    }

    pub(crate) fn byte(&mut self, b: u8) -> Result<(), RdbError> {
        self.raw(&[b])
    }

    pub(crate) fn len(&mut self, n: u64) -> Result<(), RdbError> {
        if n < 1 << 6 {
            self.byte(n as u8)
        } else if n < 1 << 14 {
            self.raw(&[(LEN_14BIT << 6) | (n >> 8) as u8, n as u8])
        } else if n <= u32::MAX as u64 {
            self.byte(LEN_32BIT)?;
            self.raw(&(n as u32).to_be_bytes())
        } else {
            self.byte(LEN_64BIT)?;
            self.raw(&n.to_be_bytes())
        }
    }

    pub(crate) fn string(&mut self, s: &[u8]) -> Result<(), RdbError> {
        self.len(s.len() as u64)?;
        self.raw(s)
    }

    pub(crate) fn ms(&mut self, ms: u64) -> Result<(), RdbError> {
        self.raw(&(ms as i64).to_le_bytes())
    }

    pub fn aux(&mut self, key: &[u8], value: &[u8]) -> Result<(), RdbError> {
        self.byte(OP_AUX)?;
        self.string(key)?;
        self.string(value)
    }

    /// Starts database `db`; `keys` and `expires` size Redis' tables as it loads (a hint).
    pub fn select_db(&mut self, db: u64, keys: u64, expires: u64) -> Result<(), RdbError> {
        self.byte(OP_SELECTDB)?;
        self.len(db)?;
        self.byte(OP_RESIZEDB)?;
        self.len(keys)?;
        self.len(expires)
    }

    /// One key of the current database, with its absolute expiry (unix ms).
    pub fn key(&mut self, key: &[u8], value: &Value, expires_at_ms: Option<u64>) -> Result<(), RdbError> {
        if let Some(at) = expires_at_ms {
            self.byte(OP_EXPIRETIME_MS)?;
            self.ms(at)?;
        }
        let ty = match value {
            Value::Str(_) => TYPE_STRING,
            Value::List(_) => TYPE_LIST,
            Value::Set(_) => TYPE_SET,
            Value::ZSet(_) => TYPE_ZSET_2,
            Value::Hash(_) => TYPE_HASH,
            Value::Stream(_) => TYPE_STREAM_LISTPACKS_2,
        };
        self.byte(ty)?;
        self.string(key)?;
        match value {
            Value::Str(s) => self.string(s),
            Value::List(l) => {
                self.len(l.len() as u64)?;
                l.iter().try_for_each(|e| self.string(e))
            }
            Value::Set(s) => {
                self.len(s.len() as u64)?;
                s.iter().try_for_each(|m| self.string(m))
            }
            Value::ZSet(z) => {
                self.len(z.len() as u64)?;
                z.iter().try_for_each(|(m, score)| {
                    self.string(m)?;
                    self.raw(&score.to_le_bytes())
                })
            }
            Value::Hash(h) => {
                self.len(h.len() as u64)?;
                h.iter().try_for_each(|(f, v)| {
                    self.string(f)?;
                    self.string(v)
                })
            }
            Value::Stream(s) => crate::stream_save::stream(self, s),
        }
    }

    /// Writes EOF and the checksum, flushes, and gives the output back.
    pub fn finish(mut self) -> Result<W, RdbError> {
        self.byte(OP_EOF)?;
        let crc = self.digest.clone().finalize();
        self.out.write_all(&crc.to_le_bytes()).map_err(|e| RdbError::io("write the RDB", e))?;
        self.written += 8;
        self.out.flush().map_err(|e| RdbError::io("write the RDB", e))?;
        Ok(self.out)
    }
}
