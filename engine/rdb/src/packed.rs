//! What the packed encodings hold: [`Elem`], an element of a ziplist or listpack, and the two
//! small legacy blobs, intset and zipmap. Every offset is checked against the blob's length.

use bytes::Bytes;

/// One element of a ziplist or listpack: Redis stores an integer-looking string as a number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Elem<'a> {
    Int(i64),
    Str(&'a [u8]),
}

impl Elem<'_> {
    /// The element as Redis gives it back: an integer in decimal.
    pub fn to_bytes(self) -> Bytes {
        match self {
            Elem::Int(n) => Bytes::from(n.to_string()),
            Elem::Str(s) => Bytes::copy_from_slice(s),
        }
    }

    pub fn as_int(self) -> Option<i64> {
        match self {
            Elem::Int(n) => Some(n),
            Elem::Str(s) => std::str::from_utf8(s).ok()?.parse().ok(),
        }
    }

    /// A sorted-set score as Redis parses one (`strtod`; `inf`, `-inf` included).
    pub fn as_score(self) -> Option<f64> {
        match self {
            Elem::Int(n) => Some(n as f64),
            Elem::Str(s) => parse_score(s),
        }
    }
}

pub(crate) fn parse_score(s: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(s).ok()?;
    let v: f64 = text.trim().parse().ok()?;
    (!v.is_nan()).then_some(v)
}

/// The integers of an intset: `encoding (u32 LE: 2, 4 or 8) | count (u32 LE) | values LE`.
pub(crate) fn intset(blob: &[u8]) -> Result<Vec<i64>, String> {
    if blob.len() < 8 {
        return Err("intset shorter than its header".into());
    }
    let width = u32::from_le_bytes(blob[0..4].try_into().unwrap()) as usize;
    let count = u32::from_le_bytes(blob[4..8].try_into().unwrap()) as usize;
    if !matches!(width, 2 | 4 | 8) {
        return Err(format!("intset with an encoding of {width} bytes"));
    }
    if count.checked_mul(width).and_then(|n| n.checked_add(8)) != Some(blob.len()) {
        return Err(format!("intset of {count} values of {width} bytes in a blob of {} bytes", blob.len()));
    }
    Ok(blob[8..]
        .chunks_exact(width)
        .map(|c| match width {
            2 => i16::from_le_bytes(c.try_into().unwrap()) as i64,
            4 => i32::from_le_bytes(c.try_into().unwrap()) as i64,
            _ => i64::from_le_bytes(c.try_into().unwrap()),
        })
        .collect())
}

/// The pairs of a zipmap (hashes before Redis 2.6): `zmlen | (len key len free value pad)* | 255`,
/// a length being one byte below 254 or 254 and a u32 LE.
pub(crate) fn zipmap(blob: &[u8]) -> Result<Vec<(Bytes, Bytes)>, String> {
    fn len_at(blob: &[u8], p: &mut usize) -> Result<Option<usize>, String> {
        let b = *blob.get(*p).ok_or("zipmap without its end marker")?;
        *p += 1;
        match b {
            255 => Ok(None),
            254 => {
                let raw = blob.get(*p..*p + 4).ok_or("zipmap length cut short")?;
                *p += 4;
                Ok(Some(u32::from_le_bytes(raw.try_into().unwrap()) as usize))
            }
            253 => Err("zipmap length byte 253 is not used".into()),
            n => Ok(Some(n as usize)),
        }
    }
    fn take<'a>(blob: &'a [u8], p: &mut usize, n: usize) -> Result<&'a [u8], String> {
        let end = p.checked_add(n).filter(|&e| e <= blob.len()).ok_or("zipmap entry past its end")?;
        let s = &blob[*p..end];
        *p = end;
        Ok(s)
    }
    let mut p = 1; // zmlen: a count up to 254, not trusted
    let mut pairs = Vec::new();
    while let Some(klen) = len_at(blob, &mut p)? {
        let key = take(blob, &mut p, klen)?;
        let vlen = len_at(blob, &mut p)?.ok_or("zipmap key without a value")?;
        let free = *blob.get(p).ok_or("zipmap entry cut short")? as usize;
        p += 1;
        let value = take(blob, &mut p, vlen)?;
        take(blob, &mut p, free)?;
        pairs.push((Bytes::copy_from_slice(key), Bytes::copy_from_slice(value)));
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intset_widths_and_bounds() {
        let mut blob = vec![2, 0, 0, 0, 2, 0, 0, 0];
        blob.extend_from_slice(&(-5i16).to_le_bytes());
        blob.extend_from_slice(&300i16.to_le_bytes());
        assert_eq!(intset(&blob).unwrap(), vec![-5, 300]);
        blob[4] = 3;
        assert!(intset(&blob).is_err());
        assert!(intset(&[8, 0, 0, 0, 255, 255, 255, 255]).is_err());
        assert!(intset(&[3, 0, 0, 0, 0, 0, 0, 0]).is_err());
    }

    #[test]
    fn zipmap_pairs_and_bounds() {
        // zmlen 2: "a" => "xy" (1 free byte), "bc" => "" ; end.
        let blob = [2, 1, b'a', 2, 1, b'x', b'y', 0, 2, b'b', b'c', 0, 0, 255];
        let pairs = zipmap(&blob).unwrap();
        assert_eq!(pairs, vec![(Bytes::from("a"), Bytes::from("xy")), (Bytes::from("bc"), Bytes::new())]);
        assert!(zipmap(&blob[..blob.len() - 1]).is_err());
        assert!(zipmap(&[1, 200, b'a']).is_err());
    }
}
