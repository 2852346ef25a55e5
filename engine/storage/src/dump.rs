//! DUMP/RESTORE payloads: a value in the log's own value encoding (`codec::encode_value`), then
//! a format version and a CRC32, so RESTORE refuses a payload from another format, version or
//! a damaged copy before it decodes anything. Not Redis' RDB format: a payload moves between
//! Basalt servers (or back into the one that dumped it), not between Basalt and Redis.
//!
//! Layout: `value | version (u16 LE) | crc32 (u32 LE) of value and version`.

use crate::codec::{decode_value, encode_value};
use crate::value::Value;
use bytes::Bytes;

/// The payload format this build writes and reads.
pub const DUMP_VERSION: u16 = 1;
const TRAILER: usize = 2 + 4;

/// Why a payload was refused (the text RESTORE answers after `ERR `).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DumpError {
    /// Wrong version or checksum: not a payload of this format, or a damaged one.
    VersionOrChecksum,
    /// Version and checksum hold but the value inside does not decode to a valid value.
    BadData,
}

/// The DUMP payload of `value`.
pub fn dump(value: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(value.mem_size() + TRAILER);
    encode_value(value, 0, &mut out);
    out.extend_from_slice(&DUMP_VERSION.to_le_bytes());
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The value of a DUMP payload, checked: version, checksum, then a complete decode that leaves
/// no byte over, no duplicate field or member, no NaN score and no empty collection.
pub fn restore(payload: &[u8]) -> Result<Value, DumpError> {
    if payload.len() < TRAILER {
        return Err(DumpError::VersionOrChecksum);
    }
    let (signed, crc) = payload.split_at(payload.len() - 4);
    let version = u16::from_le_bytes([signed[signed.len() - 2], signed[signed.len() - 1]]);
    if version != DUMP_VERSION || crc32fast::hash(signed) != u32::from_le_bytes(crc.try_into().unwrap()) {
        return Err(DumpError::VersionOrChecksum);
    }
    let body = Bytes::copy_from_slice(&signed[..signed.len() - 2]);
    let (value, flags) = decode_value(&body).map_err(|_| DumpError::BadData)?;
    if flags != 0 || value.is_empty_collection() {
        return Err(DumpError::BadData);
    }
    // A duplicate field or member, or a NaN score, decodes into fewer elements than the body
    // holds: the value's own encoding comes out shorter.
    let mut again = Vec::with_capacity(body.len());
    encode_value(&value, 0, &mut again);
    if again.len() != body.len() {
        return Err(DumpError::BadData);
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::ZSet;

    fn values() -> Vec<Value> {
        let b = |s: &str| Bytes::copy_from_slice(s.as_bytes());
        let mut z = ZSet::new();
        z.insert(b("a"), 1.5);
        z.insert(b("b"), f64::INFINITY);
        vec![
            Value::Str(b("")),
            Value::Str(b("hello")),
            Value::Hash(Box::new([(b("f"), b("v")), (b("g"), b(""))].into_iter().collect())),
            Value::List([b("x"), b("x"), b("y")].into_iter().collect()),
            Value::Set(Box::new([b("1"), b("2")].into_iter().collect())),
            Value::ZSet(Box::new(z)),
        ]
    }

    #[test]
    fn round_trips() {
        for v in values() {
            assert_eq!(restore(&dump(&v)), Ok(v));
        }
    }

    #[test]
    fn refuses_damage_and_never_panics() {
        for v in values() {
            let good = dump(&v);
            for cut in 0..good.len() {
                assert!(restore(&good[..cut]).is_err(), "truncated at {cut}");
            }
            for i in 0..good.len() {
                for bit in 0..8 {
                    let mut bad = good.clone();
                    bad[i] ^= 1 << bit;
                    assert!(restore(&bad).is_err(), "bit {bit} of byte {i}");
                }
            }
        }
    }

    /// Payloads with a valid version and checksum around a bad value: random bodies, and
    /// bodies that lie about their counts.
    #[test]
    fn refuses_bad_values_with_valid_checksums() {
        let seal = |body: &[u8]| {
            let mut p = body.to_vec();
            p.extend_from_slice(&DUMP_VERSION.to_le_bytes());
            let crc = crc32fast::hash(&p);
            p.extend_from_slice(&crc.to_le_bytes());
            p
        };
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let len = (rng % 40) as usize;
            let body: Vec<u8> = (0..len).map(|i| (rng >> (i % 56)) as u8 % 7).collect();
            let _ = restore(&seal(&body));
        }
        // a hash claiming 2^32-1 fields, a set with a duplicate, an empty list, a NaN score
        assert_eq!(restore(&seal(&[1, 255, 255, 255, 255])), Err(DumpError::BadData));
        assert_eq!(restore(&seal(&[3, 2, 0, 0, 0, 1, 0, 0, 0, b'a', 1, 0, 0, 0, b'a'])), Err(DumpError::BadData));
        assert_eq!(restore(&seal(&[2, 0, 0, 0, 0])), Err(DumpError::BadData));
        let mut nan = vec![4, 1, 0, 0, 0];
        nan.extend_from_slice(&f64::NAN.to_bits().to_le_bytes());
        nan.extend_from_slice(&[1, 0, 0, 0, b'm']);
        assert_eq!(restore(&seal(&nan)), Err(DumpError::BadData));
        // the flags prefix is the log's, never a payload's
        assert_eq!(restore(&seal(&[5, 1, 0, 0, 0, 0, b'x'])), Err(DumpError::BadData));
    }
}
