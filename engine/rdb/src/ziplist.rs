//! Ziplists (lists, hashes and sorted sets of RDB types 10, 12, 13, and quicklist nodes of
//! type 14): `zlbytes (u32 LE) | zltail (u32 LE) | zllen (u16 LE) | entries | 255`, an entry
//! being `prevlen | encoding | data`. Read only: Redis 7.0 no longer writes them.

use crate::packed::Elem;

/// Every element of the ziplist, in order.
pub(crate) fn elements(zl: &[u8]) -> Result<Vec<Elem<'_>>, String> {
    if zl.len() < 11 {
        return Err("ziplist shorter than its header".into());
    }
    let total = u32::from_le_bytes(zl[0..4].try_into().unwrap()) as usize;
    if total != zl.len() {
        return Err(format!("ziplist says {total} bytes, its blob has {}", zl.len()));
    }
    let count = u16::from_le_bytes(zl[8..10].try_into().unwrap()) as usize;
    let mut out = Vec::with_capacity(count.min(zl.len()));
    let mut p = 10;
    let bytes = |p: usize, n: usize| zl.get(p..p + n).ok_or_else(|| "ziplist entry past its end".to_string());
    loop {
        let first = *zl.get(p).ok_or("ziplist without its end marker")?;
        if first == 0xFF {
            break;
        }
        p += if first == 0xFE { 5 } else { 1 };
        let enc = *zl.get(p).ok_or("ziplist entry cut short")?;
        let elem = match enc >> 6 {
            0 | 1 | 2 => {
                let (len, head) = match enc >> 6 {
                    0 => ((enc & 0x3f) as usize, 1),
                    1 => ((((enc & 0x3f) as usize) << 8) | *zl.get(p + 1).ok_or("ziplist entry cut short")? as usize, 2),
                    _ => (u32::from_be_bytes(bytes(p + 1, 4)?.try_into().unwrap()) as usize, 5),
                };
                if enc >> 6 == 2 && enc != 0x80 {
                    return Err(format!("ziplist string encoding {enc:#x}"));
                }
                p += head;
                let s = bytes(p, len)?;
                p += len;
                Elem::Str(s)
            }
            _ => {
                let (v, n) = match enc {
                    0xC0 => (i16::from_le_bytes(bytes(p + 1, 2)?.try_into().unwrap()) as i64, 2),
                    0xD0 => (i32::from_le_bytes(bytes(p + 1, 4)?.try_into().unwrap()) as i64, 4),
                    0xE0 => (i64::from_le_bytes(bytes(p + 1, 8)?.try_into().unwrap()), 8),
                    0xF0 => {
                        let b = bytes(p + 1, 3)?;
                        ((i32::from_le_bytes([0, b[0], b[1], b[2]]) >> 8) as i64, 3)
                    }
                    0xFE => (bytes(p + 1, 1)?[0] as i8 as i64, 1),
                    0xF1..=0xFD => ((enc & 0x0f) as i64 - 1, 0),
                    _ => return Err(format!("ziplist integer encoding {enc:#x}")),
                };
                p += 1 + n;
                Elem::Int(v)
            }
        };
        out.push(elem);
    }
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A ziplist of `elems` (strings, and i64 as their widest encoding), for tests.
    pub fn build(elems: &[Elem<'_>]) -> Vec<u8> {
        let mut body = Vec::new();
        let mut prev = 0usize;
        for e in elems {
            let start = body.len();
            if prev < 254 {
                body.push(prev as u8);
            } else {
                body.push(0xFE);
                body.extend_from_slice(&(prev as u32).to_le_bytes());
            }
            match e {
                Elem::Str(s) if s.len() < 64 => {
                    body.push(s.len() as u8);
                    body.extend_from_slice(s);
                }
                Elem::Str(s) => {
                    body.push(0x80);
                    body.extend_from_slice(&(s.len() as u32).to_be_bytes());
                    body.extend_from_slice(s);
                }
                Elem::Int(n) if (0..=12).contains(n) => body.push(0xF1 + *n as u8),
                Elem::Int(n) => {
                    body.push(0xE0);
                    body.extend_from_slice(&n.to_le_bytes());
                }
            }
            prev = body.len() - start;
        }
        let mut zl = Vec::new();
        zl.extend_from_slice(&((body.len() + 11) as u32).to_le_bytes());
        zl.extend_from_slice(&0u32.to_le_bytes());
        zl.extend_from_slice(&(elems.len() as u16).to_le_bytes());
        zl.extend_from_slice(&body);
        zl.push(0xFF);
        zl
    }

    #[test]
    fn round_trip_and_bounds() {
        let long = vec![b'z'; 300];
        let elems = [Elem::Str(b"a"), Elem::Int(7), Elem::Int(-123456789012), Elem::Str(&long), Elem::Str(b"")];
        let zl = build(&elems);
        assert_eq!(elements(&zl).unwrap(), elems);
        // int16 / int24 / int8 encodings by hand.
        let mut zl = vec![0; 10];
        zl.extend_from_slice(&[0, 0xC0, 0x18, 0xFC, 4, 0xF0, 0xFF, 0xFF, 0x7F, 5, 0xFE, 0x80, 0xFF]);
        let n = zl.len() as u32;
        zl[0..4].copy_from_slice(&n.to_le_bytes());
        assert_eq!(elements(&zl).unwrap(), vec![Elem::Int(-1000), Elem::Int(8388607), Elem::Int(-128)]);
        let mut cut = build(&elems);
        cut.truncate(cut.len() - 2);
        let n = cut.len() as u32;
        cut[0..4].copy_from_slice(&n.to_le_bytes());
        assert!(elements(&cut).is_err());
    }
}
