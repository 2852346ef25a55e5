//! Element-level changes of collections (delta records): a field set or deleted in a hash,
//! an element pushed or popped at one end of a list, a member added to or removed from a set
//! or sorted set. A write that only makes such changes to a collection that already existed is
//! logged as them (`7` ops, see the crate docs), not as the whole value, so HSET into a hash of
//! a million fields writes one field. [`apply`] is the one place a delta changes a value:
//! commands (through [`crate::Slot::apply`]), recovery and cold reads all call it.

use crate::stream::{self, StreamDelta};
use crate::value::{Value, ZSet};
use bytes::Bytes;

/// One element-level change of a collection.
#[derive(Debug, Clone, PartialEq)]
pub enum Delta {
    /// Hash: set `field` to `value`.
    HashSet(Bytes, Bytes),
    /// Hash: delete a field.
    HashDel(Bytes),
    /// List: push an element at the head (`left`) or tail.
    ListPush { left: bool, element: Bytes },
    /// List: pop one element from the head (`left`) or tail.
    ListPop { left: bool },
    /// Set: add a member.
    SetAdd(Bytes),
    /// Set: remove a member.
    SetRem(Bytes),
    /// Sorted set: set a member's score (added if new).
    ZAdd(Bytes, f64),
    /// Sorted set: remove a member.
    ZRem(Bytes),
    /// Stream: an entry, group, consumer or pending-entry change (tags 11-20, `stream.rs`).
    Stream(StreamDelta),
}

/// What [`apply`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// The value changed (a removal of a missing element, a pop of an empty list or an add of
    /// a member already there change nothing and are not logged).
    pub changed: bool,
    /// An element or field was added (HashSet of a new field, SetAdd/ZAdd of a new member) or
    /// removed (HashDel/SetRem/ZRem of one that was there): what HSET/SADD/ZADD/HDEL count.
    pub counted: bool,
    /// The element a ListPop took.
    pub popped: Option<Bytes>,
    /// Change of [`Value::mem_size`], kept without walking the collection.
    pub mem: i64,
    /// Bytes the change added to the value's whole encoding (`codec::encode_value`): at most
    /// this much of the op that logs it stays live, since compaction folds a chain into one
    /// whole put (`Shard::add_delta`). 0 for a removal, a pop or an overwrite no longer than
    /// what it replaced; `UNKNOWN_GROWTH` where not worked out (streams: the op is counted whole).
    pub grew: u64,
}

/// [`Outcome::grew`] of a change whose growth is not worked out.
pub const UNKNOWN_GROWTH: u64 = u64::MAX;

/// Bytes `codec::put_bytes` adds to an element beside its own (its u32 length).
const LEN: u64 = 4;

/// Bytes `Value::mem_size` charges per element besides its own bytes.
const ELEM: i64 = 32;

/// Tags of the delta encoding (see the crate docs).
const D_HSET: u8 = 1;
const D_HDEL: u8 = 2;
const D_LPUSH: u8 = 3;
const D_RPUSH: u8 = 4;
const D_LPOP: u8 = 5;
const D_RPOP: u8 = 6;
const D_SADD: u8 = 7;
const D_SREM: u8 = 8;
const D_ZADD: u8 = 9;
const D_ZREM: u8 = 10;

/// Applies `delta` to `value`, moving its elements into the collection (a clone of each cost
/// an allocation: the first clone of a value sharing its buffer allocates its count); None
/// when the value is of another type than the delta's (the caller checks the type first; at
/// replay such a delta belongs to a dead prefix).
pub fn apply(value: &mut Value, delta: Delta) -> Option<Outcome> {
    let len = |b: &Bytes| b.len() as i64;
    let ulen = |b: &Bytes| b.len() as u64;
    let mut out = Outcome::default();
    match (value, delta) {
        (Value::Hash(h), Delta::HashSet(f, v)) => {
            out.changed = true;
            let (field_len, value_len) = (len(&f), len(&v));
            match h.insert(f, v) {
                Some(old) => {
                    out.mem = value_len - len(&old);
                    out.grew = (value_len as u64).saturating_sub(ulen(&old));
                }
                None => {
                    out.counted = true;
                    out.mem = field_len + value_len + 2 * ELEM;
                    out.grew = 2 * LEN + (field_len + value_len) as u64;
                }
            }
        }
        (Value::Hash(h), Delta::HashDel(f)) => {
            if let Some((k, v)) = h.remove_entry(&f) {
                out.changed = true;
                out.counted = true;
                out.mem = -(len(&k) + len(&v) + 2 * ELEM);
            }
        }
        (Value::List(l), Delta::ListPush { left, element }) => {
            out.changed = true;
            out.mem = len(&element) + ELEM;
            out.grew = LEN + ulen(&element);
            if left {
                l.push_front(element);
            } else {
                l.push_back(element);
            }
        }
        (Value::List(l), Delta::ListPop { left }) => {
            let e = if left { l.pop_front() } else { l.pop_back() };
            if let Some(e) = e {
                out.changed = true;
                out.mem = -(len(&e) + ELEM);
                out.popped = Some(e);
            }
        }
        (Value::Set(s), Delta::SetAdd(m)) => {
            let (mem, grew) = (len(&m) + ELEM, LEN + ulen(&m));
            if s.insert(m) {
                out.changed = true;
                out.counted = true;
                out.mem = mem;
                out.grew = grew;
            }
        }
        (Value::Set(s), Delta::SetRem(m)) => {
            if s.remove(&m) {
                out.changed = true;
                out.counted = true;
                out.mem = -(len(&m) + ELEM);
            }
        }
        (Value::ZSet(z), Delta::ZAdd(m, score)) => {
            let old = z.score(&m);
            if old != Some(score) && !score.is_nan() {
                out.changed = true;
                let (mem, grew) = (2 * len(&m) + 3 * ELEM, 8 + LEN + ulen(&m));
                if z.insert(m, score) {
                    out.counted = true;
                    out.mem = mem;
                    out.grew = grew;
                }
            }
        }
        (Value::ZSet(z), Delta::ZRem(m)) => {
            if z.remove(&m) {
                out.changed = true;
                out.counted = true;
                out.mem = -(2 * len(&m) + 3 * ELEM);
            }
        }
        (Value::Stream(s), Delta::Stream(d)) => {
            (out.changed, out.counted, out.mem) = stream::apply(s, &d);
            out.grew = UNKNOWN_GROWTH;
        }
        _ => return None,
    }
    Some(out)
}

/// Deltas as a delta op's body holds them, encoded as they are applied (`Slot::apply`): the
/// count, and the deltas after it as [`encode_one`] writes them.
#[derive(Debug, Default)]
pub(crate) struct Encoded {
    pub ops: u32,
    pub body: Vec<u8>,
}

impl Encoded {
    pub fn is_empty(&self) -> bool {
        self.ops == 0
    }

    /// The whole body: `count (u32)` then the deltas.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.ops.to_le_bytes());
        out.extend_from_slice(&self.body);
    }
}

/// Appends the body of a delta op: `count (u32)` then each delta as [`encode_one`] writes it.
#[cfg(test)]
pub(crate) fn encode(deltas: &[Delta], out: &mut Vec<u8>) {
    out.extend_from_slice(&(deltas.len() as u32).to_le_bytes());
    for d in deltas {
        encode_one(d, out);
    }
}

/// Appends one delta: its tag and its fields, each field `len (u32) bytes`.
pub(crate) fn encode_one(d: &Delta, out: &mut Vec<u8>) {
    // Room first: grown piece by piece, a new body reallocated four times for one HSET.
    out.reserve(match d {
        Delta::HashSet(f, v) => 9 + f.len() + v.len(),
        Delta::HashDel(e) | Delta::ListPush { element: e, .. } | Delta::SetAdd(e) | Delta::SetRem(e) | Delta::ZRem(e) => 5 + e.len(),
        Delta::ZAdd(m, _) => 13 + m.len(),
        Delta::ListPop { .. } => 1,
        Delta::Stream(_) => 64,
    });
    let bytes = |out: &mut Vec<u8>, b: &[u8]| {
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
        out.extend_from_slice(b);
    };
    match d {
        Delta::HashSet(f, v) => {
            out.push(D_HSET);
            bytes(out, f);
            bytes(out, v);
        }
        Delta::HashDel(f) => {
            out.push(D_HDEL);
            bytes(out, f);
        }
        Delta::ListPush { left, element } => {
            out.push(if *left { D_LPUSH } else { D_RPUSH });
            bytes(out, element);
        }
        Delta::ListPop { left } => out.push(if *left { D_LPOP } else { D_RPOP }),
        Delta::SetAdd(m) => {
            out.push(D_SADD);
            bytes(out, m);
        }
        Delta::SetRem(m) => {
            out.push(D_SREM);
            bytes(out, m);
        }
        Delta::ZAdd(m, score) => {
            out.push(D_ZADD);
            out.extend_from_slice(&score.to_bits().to_le_bytes());
            bytes(out, m);
        }
        Delta::ZRem(m) => {
            out.push(D_ZREM);
            bytes(out, m);
        }
        Delta::Stream(d) => stream::encode_delta(d, out),
    }
}

/// Decodes a delta op's body (as [`encode`] wrote it); elements share `body`'s buffer.
pub(crate) fn decode(body: &Bytes) -> Result<Vec<Delta>, &'static str> {
    let data: &[u8] = body;
    let mut pos = 0usize;
    let take = |pos: &mut usize, n: usize| -> Result<std::ops::Range<usize>, &'static str> {
        if data.len() - *pos < n {
            return Err("delta truncated");
        }
        *pos += n;
        Ok(*pos - n..*pos)
    };
    let u32_at = |pos: &mut usize| -> Result<usize, &'static str> {
        let r = take(pos, 4)?;
        Ok(u32::from_le_bytes(data[r].try_into().unwrap()) as usize)
    };
    let elem = |pos: &mut usize| -> Result<Bytes, &'static str> {
        let n = u32_at(pos)?;
        Ok(body.slice(take(pos, n)?))
    };
    let n = u32_at(&mut pos)?;
    let mut out = Vec::with_capacity(n.min(1024));
    for _ in 0..n {
        let tag = data[take(&mut pos, 1)?][0];
        out.push(match tag {
            D_HSET => {
                let f = elem(&mut pos)?;
                Delta::HashSet(f, elem(&mut pos)?)
            }
            D_HDEL => Delta::HashDel(elem(&mut pos)?),
            D_LPUSH | D_RPUSH => Delta::ListPush { left: tag == D_LPUSH, element: elem(&mut pos)? },
            D_LPOP | D_RPOP => Delta::ListPop { left: tag == D_LPOP },
            D_SADD => Delta::SetAdd(elem(&mut pos)?),
            D_SREM => Delta::SetRem(elem(&mut pos)?),
            D_ZADD => {
                let r = take(&mut pos, 8)?;
                let score = f64::from_bits(u64::from_le_bytes(data[r].try_into().unwrap()));
                Delta::ZAdd(elem(&mut pos)?, score)
            }
            D_ZREM => Delta::ZRem(elem(&mut pos)?),
            stream::D_XADD..=stream::D_PEL_DEL => {
                let mut r = stream::Reader { data: body, pos };
                let d = stream::decode_delta(tag, &mut r)?;
                pos = r.pos;
                Delta::Stream(d)
            }
            _ => return Err("unknown delta"),
        });
    }
    if pos != data.len() {
        return Err("trailing bytes in delta");
    }
    Ok(out)
}

/// Applies an encoded body to `value` (recovery, cold reads); returns the change of memory
/// and the growth of the whole encoding (summed as [`Outcome`] holds them).
pub(crate) fn apply_encoded(value: &mut Value, body: &Bytes) -> Result<(i64, u64), &'static str> {
    let (mut mem, mut grew) = (0, 0u64);
    for d in decode(body)? {
        // A delta of another type is from a dead prefix of the log (see `recovery`): skipped.
        if let Some(out) = apply(value, d) {
            mem += out.mem;
            grew = grew.saturating_add(out.grew);
        }
    }
    Ok((mem, grew))
}

/// Number of elements of a collection (the folding rule compares its delta chain with it).
pub(crate) fn elements(value: &Value) -> usize {
    match value {
        Value::Str(_) => 1,
        Value::Hash(h) => h.len(),
        Value::List(l) => l.len(),
        Value::Set(s) => s.len(),
        Value::ZSet(z) => ZSet::len(z),
        Value::Stream(s) => s.elements(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_decode_round_trip() {
        let b = |s: &str| Bytes::copy_from_slice(s.as_bytes());
        let deltas = vec![
            Delta::HashSet(b("f"), b("v")),
            Delta::HashDel(b("f")),
            Delta::ListPush { left: true, element: b("x") },
            Delta::ListPush { left: false, element: b("") },
            Delta::ListPop { left: false },
            Delta::SetAdd(b("m")),
            Delta::SetRem(b("m")),
            Delta::ZAdd(b("z"), -1.5),
            Delta::ZRem(b("z")),
        ];
        let mut buf = Vec::new();
        encode(&deltas, &mut buf);
        assert_eq!(decode(&Bytes::from(buf.clone())).unwrap(), deltas);
        buf.pop();
        assert!(decode(&Bytes::from(buf)).is_err());
    }
}
