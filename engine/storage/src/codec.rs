//! Byte format of log records and of values (see the crate docs for the layout).

use crate::cipher::{Cipher, SEAL_OVERHEAD};
use crate::value::{Kind, Value, ZSet};
use bytes::Bytes;
use std::collections::{HashMap, HashSet, VecDeque};

/// Bytes before a record's payload: crc32 and length.
pub(crate) const HEADER: usize = 8;

/// Associated data of a sealed key field.
pub(crate) const KEY_AAD: &[u8] = b"k";

const OP_PUT: u8 = 1;
const OP_DEL: u8 = 2;
const OP_FLUSH: u8 = 3;
/// `4 db (u32)`: the ops after it in the same record apply to database `db` (each record
/// starts in database 0, so logs written before databases existed read as database 0).
const OP_SELECT: u8 = 4;
/// `5 db (u32)`: FLUSHDB of one database.
const OP_FLUSH_DB: u8 = 5;
/// `6 a (u32) b (u32)`: SWAPDB a b.
const OP_SWAP_DB: u8 = 6;
/// `200 replid (40 bytes) offset (u64)`: on a replica, where the replication stream stood
/// after this record (all-zero replid: unknown). Always the last op of its record; data ops
/// ignore it (see `replication.rs`). A high number so new data op kinds never collide.
pub(crate) const OP_REPL_POS: u8 = 200;
/// Bytes of a replication position op.
pub(crate) const REPL_POS_LEN: usize = 1 + 40 + 8;
/// `8 time_ms (u64)`: the wall-clock time (unix ms) of this record; a record without one has
/// the time of the last record before it in its segment that had one (log format 2, see
/// `stamp`). Always the first op of its record.
pub(crate) const OP_TIME: u8 = 8;
/// `9 format (u8) first_lsn (u64) time_ms (u64)`: the head of a segment, first op of its first
/// record (log format 2): the format the segment is written in, the LSN of this record (so
/// LSNs stay the same across restarts and compaction), and its time.
pub(crate) const OP_SEGMENT_HEAD: u8 = 9;
/// The log format new segments are written in: 2 = records carry their time (`OP_TIME`,
/// `OP_SEGMENT_HEAD`). A segment whose first record has no head op is format 1 (written
/// before), its records' times unknown (0).
pub const LOG_FORMAT: u8 = 2;

/// What `Wal::append` puts at the start of a record: a segment's head, a time, or nothing.
#[derive(Clone, Copy)]
pub(crate) enum Stamp {
    Head { lsn: u64, time_ms: u64 },
    Time(u64),
}

/// Appends `record` (finished, CRC unsalted) to `out` with `stamp` as its first op: the op
/// count and length grow and the CRC is computed again. Returns the bytes the op added, which
/// every position in `record` moves by. Only a record whose millisecond differs from the one
/// before it (or that starts a segment) is stamped, so under load most records are copied as
/// they are and the CRC is computed again for about one record per millisecond.
pub(crate) fn stamp(out: &mut Vec<u8>, record: &[u8], stamp: Stamp) -> usize {
    let start = out.len();
    let mut op = [0u8; 18];
    let op: &[u8] = match stamp {
        Stamp::Head { lsn, time_ms } => {
            op[0] = OP_SEGMENT_HEAD;
            op[1] = LOG_FORMAT;
            op[2..10].copy_from_slice(&lsn.to_le_bytes());
            op[10..18].copy_from_slice(&time_ms.to_le_bytes());
            &op[..18]
        }
        Stamp::Time(time_ms) => {
            op[0] = OP_TIME;
            op[1..9].copy_from_slice(&time_ms.to_le_bytes());
            &op[..9]
        }
    };
    let len = u32::from_le_bytes(record[4..8].try_into().unwrap()) + op.len() as u32;
    let nops = u32::from_le_bytes(record[HEADER..HEADER + 4].try_into().unwrap()) + 1;
    out.extend_from_slice(&[0u8; 4]);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&nops.to_le_bytes());
    out.extend_from_slice(op);
    out.extend_from_slice(&record[HEADER + 4..]);
    let crc = crc32fast::hash(&out[start + 4..]);
    out[start..start + 4].copy_from_slice(&crc.to_le_bytes());
    op.len()
}

/// The record `record` (CRC unsalted) without its leading time or head op, and the time that
/// op held: a replica logs its primary's records stamped by its own log, with the primary's time.
pub(crate) fn unstamp(record: &[u8]) -> (std::borrow::Cow<'_, [u8]>, Option<u64>) {
    let (op_len, time_at) = match record.get(HEADER + 4) {
        Some(&OP_TIME) => (9, HEADER + 5),
        Some(&OP_SEGMENT_HEAD) => (18, HEADER + 4 + 10),
        _ => return (std::borrow::Cow::Borrowed(record), None),
    };
    let Some(time) = record.get(time_at..time_at + 8) else { return (std::borrow::Cow::Borrowed(record), None) };
    let time = u64::from_le_bytes(time.try_into().unwrap());
    let nops = u32::from_le_bytes(record[HEADER..HEADER + 4].try_into().unwrap()).saturating_sub(1);
    let mut buf = Vec::with_capacity(record.len() - op_len);
    buf.extend_from_slice(&record[..HEADER]);
    buf.extend_from_slice(&nops.to_le_bytes());
    buf.extend_from_slice(&record[HEADER + 4 + op_len..]);
    let len = (buf.len() - HEADER) as u32;
    buf[4..8].copy_from_slice(&len.to_le_bytes());
    let crc = crc32fast::hash(&buf[4..]);
    buf[0..4].copy_from_slice(&crc.to_le_bytes());
    (std::borrow::Cow::Owned(buf), Some(time))
}

/// `7 key-len key body-len body`: element-level changes of the collection under `key`
/// (`delta::Encoded`), applied to the value the key holds at that point of the log.
const OP_DELTA: u8 = 7;

/// Associated data of a sealed delta body is this prefix and the plaintext key, so a sealed
/// delta can never be read as a sealed value of the same key, nor the reverse.
pub(crate) const DELTA_AAD: &[u8] = b"delta:";

pub(crate) fn delta_aad(key: &[u8]) -> Vec<u8> {
    [DELTA_AAD, key].concat()
}

const TAG_STR: u8 = 0;
const TAG_HASH: u8 = 1;
const TAG_LIST: u8 = 2;
const TAG_SET: u8 = 3;
const TAG_ZSET: u8 = 4;
/// `6 version (u8) ...`: a stream (`stream::encode_value`).
const TAG_STREAM: u8 = 6;
/// A prefix, not a type: `5 | flags (u32 LE)` then the value's own encoding. Written only for
/// non-zero memcached flags, so a value without flags is stored exactly as before it existed,
/// and a log written before it reads with flags 0.
const TAG_FLAGS: u8 = 5;
const FLAGS_PREFIX: usize = 5;

/// One record being built: header space, op count, ops. `finish` fills in length and CRC.
pub(crate) struct RecordBuf {
    pub buf: Vec<u8>,
    nops: u32,
    /// For each put and delta op, in order: (offset of the value or delta body within the
    /// record, its length, op length).
    pub puts: Vec<(usize, usize, usize)>,
    /// The database the next op applies to (each record starts in 0).
    db: u32,
}

impl RecordBuf {
    pub fn new() -> RecordBuf {
        RecordBuf::with_capacity(0)
    }

    /// A record with room for about `payload` bytes of ops, so building it does not regrow.
    pub fn with_capacity(payload: usize) -> RecordBuf {
        let mut buf = Vec::with_capacity(HEADER + 4 + payload);
        buf.resize(HEADER + 4, 0);
        RecordBuf { buf, nops: 0, puts: Vec::new(), db: 0 }
    }

    /// A put of `key` = `value` with its memcached `flags`; with a cipher, both fields are
    /// sealed, the flags inside the value field (see the crate docs).
    pub fn put(&mut self, cipher: Option<&Cipher>, key: &[u8], expires_at_ms: Option<u64>, value: &Value, flags: u32) {
        let start = self.put_head(cipher, key, expires_at_ms);
        let len_at = self.buf.len();
        self.buf.extend_from_slice(&[0u8; 4]);
        let value_at = self.buf.len();
        match cipher {
            None => encode_value(value, flags, &mut self.buf),
            Some(c) => {
                let nonce_at = Cipher::reserve_nonce(&mut self.buf);
                encode_value(value, flags, &mut self.buf);
                c.seal_tail(key, &mut self.buf, nonce_at);
            }
        }
        let vlen = self.buf.len() - value_at;
        self.buf[len_at..value_at].copy_from_slice(&(vlen as u32).to_le_bytes());
        self.puts.push((value_at, vlen, self.buf.len() - start));
    }

    /// A put of key and value bytes as the log stores them (plain, or sealed by the same
    /// cipher): compaction copies them over unchanged.
    pub fn put_stored(&mut self, stored_key: &[u8], expires_at_ms: Option<u64>, stored_value: &[u8]) {
        let start = self.put_head(None, stored_key, expires_at_ms);
        self.buf.extend_from_slice(&(stored_value.len() as u32).to_le_bytes());
        let value_at = self.buf.len();
        self.buf.extend_from_slice(stored_value);
        self.puts.push((value_at, stored_value.len(), self.buf.len() - start));
    }

    fn put_head(&mut self, cipher: Option<&Cipher>, key: &[u8], expires_at_ms: Option<u64>) -> usize {
        self.nops += 1;
        let start = self.buf.len();
        self.buf.push(OP_PUT);
        self.key_field(cipher, key);
        self.buf.extend_from_slice(&expires_at_ms.unwrap_or(0).to_le_bytes());
        start
    }

    /// Length-prefixed key, sealed with AAD `k` when there is a cipher.
    fn key_field(&mut self, cipher: Option<&Cipher>, key: &[u8]) {
        match cipher {
            None => put_bytes(&mut self.buf, key),
            Some(c) => {
                self.buf.extend_from_slice(&((key.len() + SEAL_OVERHEAD) as u32).to_le_bytes());
                let nonce_at = Cipher::reserve_nonce(&mut self.buf);
                self.buf.extend_from_slice(key);
                c.seal_tail(KEY_AAD, &mut self.buf, nonce_at);
            }
        }
    }

    /// A delta op: `deltas` change the collection under `key`; with a cipher the key is sealed
    /// as a put's key and the body with AAD [`delta_aad`].
    pub fn delta(&mut self, cipher: Option<&Cipher>, key: &[u8], deltas: &crate::delta::Encoded) {
        self.nops += 1;
        let start = self.buf.len();
        self.buf.push(OP_DELTA);
        self.key_field(cipher, key);
        let len_at = self.buf.len();
        self.buf.extend_from_slice(&[0u8; 4]);
        let body_at = self.buf.len();
        match cipher {
            None => deltas.write(&mut self.buf),
            Some(c) => {
                let nonce_at = Cipher::reserve_nonce(&mut self.buf);
                deltas.write(&mut self.buf);
                c.seal_tail(&delta_aad(key), &mut self.buf, nonce_at);
            }
        }
        let blen = self.buf.len() - body_at;
        self.buf[len_at..body_at].copy_from_slice(&(blen as u32).to_le_bytes());
        self.puts.push((body_at, blen, self.buf.len() - start));
    }

    pub fn del(&mut self, cipher: Option<&Cipher>, key: &[u8]) {
        self.nops += 1;
        self.buf.push(OP_DEL);
        self.key_field(cipher, key);
    }

    pub fn flush_all(&mut self) {
        self.nops += 1;
        self.buf.push(OP_FLUSH);
    }

    /// Makes the ops that follow apply to database `db` (a select op only when it changes).
    pub fn in_db(&mut self, db: usize) {
        let db = db as u32;
        if db != self.db {
            self.nops += 1;
            self.buf.push(OP_SELECT);
            self.buf.extend_from_slice(&db.to_le_bytes());
            self.db = db;
        }
    }

    pub fn flush_db(&mut self, db: usize) {
        self.nops += 1;
        self.buf.push(OP_FLUSH_DB);
        self.buf.extend_from_slice(&(db as u32).to_le_bytes());
    }

    pub fn swap_db(&mut self, a: usize, b: usize) {
        self.nops += 1;
        self.buf.push(OP_SWAP_DB);
        self.buf.extend_from_slice(&(a as u32).to_le_bytes());
        self.buf.extend_from_slice(&(b as u32).to_le_bytes());
    }

    /// Appends the ops of `other` (not finished) to this record, so several changes become
    /// one record (EXEC, EVAL). Returns what to add to a position in `other.buf` to get its
    /// position in `self.buf`.
    pub fn absorb(&mut self, other: &RecordBuf) -> usize {
        // `other` starts in database 0; say so if this record is elsewhere by now.
        self.in_db(0);
        let delta = self.buf.len() - (HEADER + 4);
        self.buf.extend_from_slice(&other.buf[HEADER + 4..]);
        self.nops += other.nops;
        self.db = other.db;
        self.puts.extend(other.puts.iter().map(|&(at, len, op_len)| (at + delta, len, op_len)));
        delta
    }

    pub fn is_empty(&self) -> bool {
        self.nops == 0
    }

    /// A record already finished elsewhere (a replica's copy of its primary's record).
    pub fn from_finished(buf: Vec<u8>) -> RecordBuf {
        RecordBuf { buf, nops: 0, puts: Vec::new(), db: 0 }
    }

    /// Where the replication stream stands after this record (replicas; see `replication.rs`).
    pub fn repl_pos(&mut self, replid: &[u8; 40], offset: u64) {
        self.nops += 1;
        self.buf.push(OP_REPL_POS);
        self.buf.extend_from_slice(replid);
        self.buf.extend_from_slice(&offset.to_le_bytes());
    }

    /// Writes op count, length and CRC; the record is then `self.buf`.
    pub fn finish(&mut self) {
        let len = (self.buf.len() - HEADER) as u32;
        self.buf[HEADER..HEADER + 4].copy_from_slice(&self.nops.to_le_bytes());
        self.buf[4..8].copy_from_slice(&len.to_le_bytes());
        let crc = crc32fast::hash(&self.buf[4..]);
        self.buf[0..4].copy_from_slice(&crc.to_le_bytes());
    }
}

/// Spare records kept no larger than this: a fold of a large collection builds a record of
/// its whole value, which a thread need not hold on to.
const SPARE_MAX: usize = 1 << 20;

thread_local! {
    static SPARE: std::cell::Cell<Option<RecordBuf>> = const { std::cell::Cell::new(None) };
}

/// A record built from this thread's spare one (emptied, its buffers' room kept) and given
/// back when dropped: a write then allocates nothing for its record, where building a new
/// one cost two allocations (its bytes and its op list). A record built while another is
/// (none is today) just starts without a spare.
pub(crate) struct SpareRecord(Option<RecordBuf>);

impl SpareRecord {
    /// A record with room for about `payload` bytes of ops (as [`RecordBuf::with_capacity`]).
    pub fn take(payload: usize) -> SpareRecord {
        let rec = match SPARE.try_with(|s| s.take()).ok().flatten() {
            Some(mut rec) => {
                rec.buf.reserve(HEADER + 4 + payload);
                rec
            }
            None => RecordBuf::with_capacity(payload),
        };
        SpareRecord(Some(rec))
    }
}

impl std::ops::Deref for SpareRecord {
    type Target = RecordBuf;
    fn deref(&self) -> &RecordBuf {
        self.0.as_ref().expect("taken only in drop")
    }
}

impl std::ops::DerefMut for SpareRecord {
    fn deref_mut(&mut self) -> &mut RecordBuf {
        self.0.as_mut().expect("taken only in drop")
    }
}

impl Drop for SpareRecord {
    fn drop(&mut self) {
        let Some(mut rec) = self.0.take() else { return };
        if rec.buf.capacity() > SPARE_MAX {
            return;
        }
        rec.buf.clear();
        rec.buf.resize(HEADER + 4, 0);
        rec.puts.clear();
        rec.nops = 0;
        rec.db = 0;
        let _ = SPARE.try_with(|s| s.set(Some(rec)));
    }
}

fn put_bytes(buf: &mut Vec<u8>, b: &[u8]) {
    buf.extend_from_slice(&(b.len() as u32).to_le_bytes());
    buf.extend_from_slice(b);
}

/// One op of a parsed record; slices point into the segment buffer and hold the fields as
/// stored (sealed when the store is encrypted: see `at_rest::open_field`).
pub(crate) enum Op<'a> {
    /// `value_at` is the offset of the value within the segment.
    Put { key: &'a [u8], expires_at_ms: Option<u64>, value: &'a [u8], value_at: usize, op_len: usize },
    Del { key: &'a [u8] },
    /// `body_at` is the offset of the (stored) delta body within the segment.
    Delta { key: &'a [u8], body: &'a [u8], body_at: usize, op_len: usize },
    FlushAll,
    Select(usize),
    FlushDb(usize),
    SwapDb(usize, usize),
    /// Where the replication stream stood (replicas only; no effect on data).
    ReplPos { replid: &'a [u8], offset: u64 },
    /// The record's time (format 2; no effect on data).
    Time(u64),
    /// A segment's head: its format, the LSN of this record, its time (no effect on data).
    Head { format: u8, first_lsn: u64, time_ms: u64 },
}

/// Why a record could not be read.
#[derive(Debug)]
pub(crate) enum BadRecord {
    /// Fewer bytes than the header or the length announce: a torn write.
    Short,
    Checksum,
    Malformed(&'static str),
}

/// What the CRCs of segment `seg`'s records are XORed with in its file (`Wal::append`). A
/// segment's file can be a compacted segment's file used again (`Wal::recycle`), whose old
/// records lie past the new ones: salted with another segment's id, they fail the check, so
/// recovery ends the log where the segment's own records end. Never 0 for a segment id (ids
/// start at 1), and no two ids share a salt (a multiplication by an odd number).
pub(crate) fn salt_of(seg: u32) -> u32 {
    seg.wrapping_add(1).wrapping_mul(0x9E37_79B1)
}

/// The salt the records of segment `seg` (its file's bytes `data`) were written with: 0 for a
/// segment written before salts (its first record checks unsalted), else `salt_of(seg)`. The
/// first record is always the segment's own: a file used again is written from its start, and
/// only segments written with salts are used again.
pub(crate) fn segment_salt(data: &[u8], seg: u32) -> u32 {
    if record_checks(data, 0) {
        0
    } else {
        salt_of(seg)
    }
}

/// Whether a whole record whose CRC was salted with `salt` starts at `data[0]`.
fn record_checks(data: &[u8], salt: u32) -> bool {
    let Some(len) = data.get(4..HEADER).map(|l| u32::from_le_bytes(l.try_into().unwrap()) as usize) else { return false };
    let Some(body) = data.get(4..HEADER + len) else { return false };
    crc32fast::hash(body) ^ salt == u32::from_le_bytes(data[0..4].try_into().unwrap())
}

/// Parses the record at `pos` in `data`, whose CRC was salted with `salt` (`salt_of`; 0 in the
/// replication stream and for segments written before salts); returns its ops and the offset
/// after it.
pub(crate) fn parse_record(data: &[u8], pos: usize, salt: u32) -> Result<(Vec<Op<'_>>, usize), BadRecord> {
    let rest = &data[pos..];
    if rest.len() < HEADER {
        return Err(BadRecord::Short);
    }
    let len = u32::from_le_bytes(rest[4..8].try_into().unwrap()) as usize;
    if rest.len() - HEADER < len {
        return Err(BadRecord::Short);
    }
    if !record_checks(rest, salt) {
        return Err(BadRecord::Checksum);
    }
    let payload_at = pos + HEADER;
    let mut r = Reader { data, pos: payload_at, end: payload_at + len };
    let nops = r.u32()?;
    let mut ops = Vec::with_capacity(nops.min(1024) as usize);
    for _ in 0..nops {
        let start = r.pos;
        match r.u8()? {
            OP_PUT => {
                let key = r.bytes()?;
                let exp = r.u64()?;
                let vlen = r.u32()? as usize;
                let value_at = r.pos;
                let value = r.take(vlen)?;
                let expires_at_ms = if exp == 0 { None } else { Some(exp) };
                ops.push(Op::Put { key, expires_at_ms, value, value_at, op_len: r.pos - start });
            }
            OP_DEL => ops.push(Op::Del { key: r.bytes()? }),
            OP_DELTA => {
                let key = r.bytes()?;
                let blen = r.u32()? as usize;
                let body_at = r.pos;
                let body = r.take(blen)?;
                ops.push(Op::Delta { key, body, body_at, op_len: r.pos - start });
            }
            OP_FLUSH => ops.push(Op::FlushAll),
            OP_SELECT => ops.push(Op::Select(r.u32()? as usize)),
            OP_FLUSH_DB => ops.push(Op::FlushDb(r.u32()? as usize)),
            OP_SWAP_DB => {
                let a = r.u32()? as usize;
                ops.push(Op::SwapDb(a, r.u32()? as usize));
            }
            OP_REPL_POS => {
                let replid = r.take(40)?;
                ops.push(Op::ReplPos { replid, offset: r.u64()? });
            }
            OP_TIME => ops.push(Op::Time(r.u64()?)),
            OP_SEGMENT_HEAD => {
                let format = r.u8()?;
                let first_lsn = r.u64()?;
                ops.push(Op::Head { format, first_lsn, time_ms: r.u64()? });
            }
            _ => return Err(BadRecord::Malformed("unknown op")),
        }
    }
    if r.pos != r.end {
        return Err(BadRecord::Malformed("trailing bytes in record"));
    }
    Ok((ops, r.end))
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    end: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], BadRecord> {
        if self.end - self.pos < n {
            return Err(BadRecord::Malformed("field runs past the record"));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, BadRecord> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, BadRecord> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn u64(&mut self) -> Result<u64, BadRecord> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    fn bytes(&mut self) -> Result<&'a [u8], BadRecord> {
        let n = self.u32()? as usize;
        self.take(n)
    }
}

/// Appends the encoding of `value` (type tag first, after the flags prefix when `flags` is
/// not 0) to `out`.
pub(crate) fn encode_value(value: &Value, flags: u32, out: &mut Vec<u8>) {
    if flags != 0 {
        out.push(TAG_FLAGS);
        out.extend_from_slice(&flags.to_le_bytes());
    }
    match value {
        Value::Str(b) => {
            out.push(TAG_STR);
            out.extend_from_slice(b);
        }
        Value::Hash(h) => {
            out.push(TAG_HASH);
            out.extend_from_slice(&(h.len() as u32).to_le_bytes());
            for (k, v) in h.iter() {
                put_bytes(out, k);
                put_bytes(out, v);
            }
        }
        Value::List(l) => {
            out.push(TAG_LIST);
            out.extend_from_slice(&(l.len() as u32).to_le_bytes());
            for v in l {
                put_bytes(out, v);
            }
        }
        Value::Set(s) => {
            out.push(TAG_SET);
            out.extend_from_slice(&(s.len() as u32).to_le_bytes());
            for v in s.iter() {
                put_bytes(out, v);
            }
        }
        Value::ZSet(z) => {
            out.push(TAG_ZSET);
            out.extend_from_slice(&(z.len() as u32).to_le_bytes());
            for (m, score) in z.iter() {
                out.extend_from_slice(&score.to_bits().to_le_bytes());
                put_bytes(out, m);
            }
        }
        Value::Stream(s) => {
            out.push(TAG_STREAM);
            crate::stream::encode_value(s, out);
        }
    }
}

/// Splits the flags prefix off an encoded value: (flags, where the value's own encoding starts).
fn split_flags(encoded: &[u8]) -> Result<(u32, usize), &'static str> {
    match encoded.first() {
        Some(&TAG_FLAGS) => {
            let b = encoded.get(1..FLAGS_PREFIX).ok_or("value truncated")?;
            Ok((u32::from_le_bytes(b.try_into().unwrap()), FLAGS_PREFIX))
        }
        _ => Ok((0, 0)),
    }
}

/// The type and flags of an encoded value, from its head (a cold value stays on disk).
pub(crate) fn encoded_head(encoded: &[u8]) -> Option<(Kind, u32)> {
    let (flags, at) = split_flags(encoded).ok()?;
    Some((encoded_kind(&encoded[at..])?, flags))
}

/// The type of an encoded value (without flags prefix), from its tag.
fn encoded_kind(encoded: &[u8]) -> Option<Kind> {
    Some(match *encoded.first()? {
        TAG_STR => Kind::Str,
        TAG_HASH => Kind::Hash,
        TAG_LIST => Kind::List,
        TAG_SET => Kind::Set,
        TAG_ZSET => Kind::ZSet,
        TAG_STREAM => Kind::Stream,
        _ => return None,
    })
}

/// Decodes a value and its flags (0 without the prefix); strings and elements share
/// `encoded`'s buffer.
pub(crate) fn decode_value(encoded: &Bytes) -> Result<(Value, u32), &'static str> {
    let (flags, at) = split_flags(encoded)?;
    let value = if at == 0 { decode_plain(encoded)? } else { decode_plain(&encoded.slice(at..))? };
    Ok((value, flags))
}

/// Decodes a value's own encoding (type tag first).
fn decode_plain(encoded: &Bytes) -> Result<Value, &'static str> {
    let tag = *encoded.first().ok_or("empty value")?;
    let mut pos = 1usize;
    let data: &[u8] = encoded;
    let u32_at = |pos: &mut usize| -> Result<usize, &'static str> {
        let b = data.get(*pos..*pos + 4).ok_or("value truncated")?;
        *pos += 4;
        Ok(u32::from_le_bytes(b.try_into().unwrap()) as usize)
    };
    let elem = |pos: &mut usize| -> Result<Bytes, &'static str> {
        let n = u32_at(pos)?;
        if data.len() - *pos < n {
            return Err("value truncated");
        }
        let b = encoded.slice(*pos..*pos + n);
        *pos += n;
        Ok(b)
    };
    let value = match tag {
        TAG_STR => return Ok(Value::Str(encoded.slice(1..))),
        TAG_HASH => {
            let n = u32_at(&mut pos)?;
            let mut h = HashMap::with_capacity(n.min(1 << 16));
            for _ in 0..n {
                let k = elem(&mut pos)?;
                let v = elem(&mut pos)?;
                h.insert(k, v);
            }
            Value::Hash(Box::new(h))
        }
        TAG_LIST => {
            let n = u32_at(&mut pos)?;
            let mut l = VecDeque::with_capacity(n.min(1 << 16));
            for _ in 0..n {
                l.push_back(elem(&mut pos)?);
            }
            Value::List(l)
        }
        TAG_SET => {
            let n = u32_at(&mut pos)?;
            let mut s = HashSet::with_capacity(n.min(1 << 16));
            for _ in 0..n {
                s.insert(elem(&mut pos)?);
            }
            Value::Set(Box::new(s))
        }
        TAG_ZSET => {
            let n = u32_at(&mut pos)?;
            let mut z = ZSet::new();
            for _ in 0..n {
                let b = data.get(pos..pos + 8).ok_or("value truncated")?;
                pos += 8;
                let score = f64::from_bits(u64::from_le_bytes(b.try_into().unwrap()));
                z.insert(elem(&mut pos)?, score);
            }
            Value::ZSet(Box::new(z))
        }
        TAG_STREAM => {
            let mut r = crate::stream::Reader { data: encoded, pos };
            let s = crate::stream::decode_value(&mut r)?;
            pos = r.pos;
            Value::Stream(Box::new(s))
        }
        _ => return Err("unknown value type"),
    };
    if pos != data.len() {
        return Err("trailing bytes in value");
    }
    Ok(value)
}
