//! [`Reader`]: an RDB file as a sequence of [`Item`]s, read from any `Read` one key at a time.
//! The header is read by `Reader::new`; the EOF opcode's CRC64 is checked before `next_item`
//! answers `None`, so a caller that stops at the first error never takes a damaged file whole.

use crate::error::RdbError;
use crate::format::*;
use crate::source::Source;
use basalt_storage::Value;
use bytes::Bytes;
use std::io::Read;

/// Bounds a hostile file cannot talk the reader past.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Bytes of the whole file.
    pub max_file_bytes: u64,
    /// Bytes of one string (a value, a member, a packed blob), decompressed.
    pub max_string_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_file_bytes: 4 << 30, max_string_bytes: 512 << 20 }
    }
}

/// One thing an RDB file holds.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Item {
    /// An AUX field (`redis-ver`, `ctime`, ...).
    Aux { key: Bytes, value: Bytes },
    /// RESIZEDB: how many keys (and keys with an expiry) the current database holds.
    ResizeDb { db: u64, keys: u64, expires: u64 },
    /// A FUNCTION2 record: one function library's code (`#!lua name=...`).
    Function { code: Bytes },
    /// A key of database `db`.
    Key(KeyValue),
}

/// A key with its value and absolute expiry (unix ms).
#[derive(Debug, Clone, PartialEq)]
pub struct KeyValue {
    pub db: u64,
    pub key: Bytes,
    pub value: Value,
    pub expires_at_ms: Option<u64>,
}

pub struct Reader<R> {
    pub(crate) src: Source<R>,
    pub(crate) limits: Limits,
    version: u32,
    db: u64,
    done: bool,
}

impl<R: Read> Reader<R> {
    /// Reads the header (`REDIS` and a 4-digit version).
    pub fn new(inner: R, limits: Limits) -> Result<Reader<R>, RdbError> {
        let mut src = Source::new(inner, limits.max_file_bytes);
        let magic: [u8; 9] = src.read_array("the header")?;
        if &magic[..5] != b"REDIS" {
            return Err(RdbError::corrupt(0, "not an RDB file (it does not start with REDIS)"));
        }
        let version = std::str::from_utf8(&magic[5..])
            .ok()
            .filter(|v| v.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|v| v.parse::<u32>().ok())
            .ok_or_else(|| RdbError::corrupt(5, "the RDB version is not 4 digits"))?;
        if version == 0 || version > MAX_READ_VERSION {
            return Err(RdbError::Unsupported {
                offset: 5,
                what: format!("RDB version {version} (this reader takes 1 to {MAX_READ_VERSION})"),
            });
        }
        Ok(Reader { src, limits, version, db: 0, done: false })
    }

    pub fn version(&self) -> u32 {
        self.version
    }

    /// Bytes read so far.
    pub fn offset(&self) -> u64 {
        self.src.offset()
    }

    /// The next item; `None` after the EOF opcode and a matching checksum.
    pub fn next_item(&mut self) -> Result<Option<Item>, RdbError> {
        if self.done {
            return Ok(None);
        }
        let mut expires_at_ms = None;
        loop {
            let at = self.src.offset();
            let op = self.src.read_u8("an opcode")?;
            match op {
                OP_EOF => {
                    self.finish()?;
                    return Ok(None);
                }
                OP_SELECTDB => self.db = self.read_len("a database number")?,
                OP_RESIZEDB => {
                    let keys = self.read_len("RESIZEDB")?;
                    let expires = self.read_len("RESIZEDB")?;
                    return Ok(Some(Item::ResizeDb { db: self.db, keys, expires }));
                }
                OP_AUX => {
                    let key = Bytes::from(self.read_string("an AUX field")?);
                    let value = Bytes::from(self.read_string("an AUX field")?);
                    return Ok(Some(Item::Aux { key, value }));
                }
                OP_EXPIRETIME_MS => {
                    let ms = i64::from_le_bytes(self.src.read_array("an expiry")?);
                    expires_at_ms = Some(ms.max(0) as u64);
                }
                OP_EXPIRETIME => {
                    let secs = i32::from_le_bytes(self.src.read_array("an expiry")?);
                    expires_at_ms = Some((secs.max(0) as u64) * 1000);
                }
                // LRU idle time and LFU counter of the next key: Basalt keeps its own.
                OP_IDLE => {
                    self.read_len("an idle time")?;
                }
                OP_FREQ => {
                    self.src.read_u8("an LFU counter")?;
                }
                OP_FUNCTION2 => {
                    let code = Bytes::from(self.read_string("a function library")?);
                    return Ok(Some(Item::Function { code }));
                }
                OP_FUNCTION_PRE_GA => {
                    return Err(RdbError::Unsupported { offset: at, what: "functions in the format of Redis 7.0's release candidates".into() })
                }
                OP_MODULE_AUX => {
                    return Err(RdbError::Unsupported { offset: at, what: "module auxiliary data (a Redis module's own data)".into() })
                }
                ty => {
                    crate::load::check_type(ty, at)?;
                    let key = Bytes::from(self.read_string("a key")?);
                    let value = crate::load::value(self, ty, at)?;
                    return Ok(Some(Item::Key(KeyValue { db: self.db, key, value, expires_at_ms })));
                }
            }
        }
    }

    fn finish(&mut self) -> Result<(), RdbError> {
        self.done = true;
        if self.version < FIRST_CHECKSUM_VERSION {
            return Ok(());
        }
        let computed = self.src.checksum();
        let at = self.src.offset();
        let stored = u64::from_le_bytes(self.src.read_array("the checksum")?);
        // 0: saved with `rdbchecksum no`, which Redis loads unchecked too.
        if stored != 0 && stored != computed {
            return Err(RdbError::Checksum { offset: at, stored, computed });
        }
        Ok(())
    }

    /// A length (no special encoding allowed).
    pub(crate) fn read_len(&mut self, reading: &'static str) -> Result<u64, RdbError> {
        let at = self.src.offset();
        match self.read_len_enc(reading)? {
            (n, false) => Ok(n),
            (_, true) => Err(RdbError::corrupt(at, format!("an encoded value where {reading} needs a length"))),
        }
    }

    /// A length, or (n, true) for the special string encoding n.
    fn read_len_enc(&mut self, reading: &'static str) -> Result<(u64, bool), RdbError> {
        let at = self.src.offset();
        let first = self.src.read_u8(reading)?;
        Ok(match first >> 6 {
            LEN_6BIT => ((first & 0x3f) as u64, false),
            LEN_14BIT => ((((first & 0x3f) as u64) << 8) | self.src.read_u8(reading)? as u64, false),
            LEN_ENCVAL => ((first & 0x3f) as u64, true),
            _ => match first {
                LEN_32BIT => (u32::from_be_bytes(self.src.read_array(reading)?) as u64, false),
                LEN_64BIT => (u64::from_be_bytes(self.src.read_array(reading)?), false),
                _ => return Err(RdbError::corrupt(at, format!("length byte {first:#x} in {reading}"))),
            },
        })
    }

    /// A string: plain, an integer, or LZF-compressed.
    pub(crate) fn read_string(&mut self, reading: &'static str) -> Result<Vec<u8>, RdbError> {
        let at = self.src.offset();
        let max = self.limits.max_string_bytes;
        match self.read_len_enc(reading)? {
            (n, false) => self.src.read_vec(n, max, reading),
            (enc, true) if enc == ENC_INT8 as u64 => Ok((self.src.read_u8(reading)? as i8).to_string().into_bytes()),
            (enc, true) if enc == ENC_INT16 as u64 => Ok(i16::from_le_bytes(self.src.read_array(reading)?).to_string().into_bytes()),
            (enc, true) if enc == ENC_INT32 as u64 => Ok(i32::from_le_bytes(self.src.read_array(reading)?).to_string().into_bytes()),
            (enc, true) if enc == ENC_LZF as u64 => {
                let clen = self.read_len(reading)?;
                let len = self.read_len(reading)?;
                if len > max {
                    return Err(RdbError::corrupt(at, format!("{reading} of {len} bytes, more than the {max} allowed")));
                }
                let packed = self.src.read_vec(clen, max, reading)?;
                crate::lzf::decompress(&packed, len as usize)
                    .map_err(|why| RdbError::corrupt(at, format!("LZF-compressed {reading}: {why}")))
            }
            (enc, _) => Err(RdbError::corrupt(at, format!("string encoding {enc} in {reading}"))),
        }
    }

    /// A score written as text (RDB type 3): a length byte, 253 NaN, 254 +inf, 255 -inf.
    pub(crate) fn read_text_double(&mut self) -> Result<f64, RdbError> {
        let at = self.src.offset();
        let len = self.src.read_u8("a score")?;
        let v = match len {
            253 => f64::NAN,
            254 => f64::INFINITY,
            255 => f64::NEG_INFINITY,
            n => {
                let text = self.src.read_vec(n as u64, 255, "a score")?;
                crate::packed::parse_score(&text).ok_or_else(|| RdbError::corrupt(at, "a score that is not a number"))?
            }
        };
        Ok(v)
    }

    pub(crate) fn read_binary_double(&mut self) -> Result<f64, RdbError> {
        Ok(f64::from_le_bytes(self.src.read_array("a score")?))
    }

    /// Milliseconds as `rdbSaveMillisecondTime` writes them (8 bytes LE).
    pub(crate) fn read_ms(&mut self, reading: &'static str) -> Result<u64, RdbError> {
        Ok(i64::from_le_bytes(self.src.read_array(reading)?).max(0) as u64)
    }
}
