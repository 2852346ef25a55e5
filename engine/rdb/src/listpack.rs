//! Listpacks (Redis 7's small hashes, sorted sets, quicklist nodes and stream nodes):
//! `total bytes (u32 LE) | count (u16 LE) | entries | 255`, an entry being
//! `encoding+data | backlen` where backlen (1-5 bytes) is the entry's length for walking
//! backwards. Read for the reader; [`Builder`] writes them for stream nodes.

use crate::packed::Elem;

const HEADER: usize = 6;
const END: u8 = 0xFF;

/// Every element of the listpack, in order.
pub(crate) fn elements(lp: &[u8]) -> Result<Vec<Elem<'_>>, String> {
    if lp.len() < HEADER + 1 {
        return Err("listpack shorter than its header".into());
    }
    let total = u32::from_le_bytes(lp[0..4].try_into().unwrap()) as usize;
    if total != lp.len() {
        return Err(format!("listpack says {total} bytes, its blob has {}", lp.len()));
    }
    let count = u16::from_le_bytes(lp[4..6].try_into().unwrap()) as usize;
    let mut out = Vec::with_capacity(count.min(lp.len()));
    let mut p = HEADER;
    let bytes = |p: usize, n: usize| lp.get(p..p + n).ok_or_else(|| "listpack entry past its end".to_string());
    loop {
        let b = *lp.get(p).ok_or("listpack without its end marker")?;
        if b == END {
            if p + 1 != lp.len() {
                return Err("listpack bytes after its end marker".into());
            }
            break;
        }
        let (elem, len) = if b & 0x80 == 0 {
            (Elem::Int(b as i64), 1)
        } else if b & 0xC0 == 0x80 {
            let n = (b & 0x3f) as usize;
            (Elem::Str(bytes(p + 1, n)?), 1 + n)
        } else if b & 0xE0 == 0xC0 {
            let raw = (((b & 0x1f) as i64) << 8) | bytes(p + 1, 1)?[0] as i64;
            (Elem::Int(if raw >= 1 << 12 { raw - (1 << 13) } else { raw }), 2)
        } else if b & 0xF0 == 0xE0 {
            let n = (((b & 0x0f) as usize) << 8) | bytes(p + 1, 1)?[0] as usize;
            (Elem::Str(bytes(p + 2, n)?), 2 + n)
        } else {
            match b {
                0xF0 => {
                    let n = u32::from_le_bytes(bytes(p + 1, 4)?.try_into().unwrap()) as usize;
                    (Elem::Str(bytes(p + 5, n)?), 5 + n)
                }
                0xF1 => (Elem::Int(i16::from_le_bytes(bytes(p + 1, 2)?.try_into().unwrap()) as i64), 3),
                0xF2 => {
                    let r = bytes(p + 1, 3)?;
                    (Elem::Int((i32::from_le_bytes([0, r[0], r[1], r[2]]) >> 8) as i64), 4)
                }
                0xF3 => (Elem::Int(i32::from_le_bytes(bytes(p + 1, 4)?.try_into().unwrap()) as i64), 5),
                0xF4 => (Elem::Int(i64::from_le_bytes(bytes(p + 1, 8)?.try_into().unwrap())), 9),
                _ => return Err(format!("listpack encoding byte {b:#x}")),
            }
        };
        p += len + backlen_size(len);
        out.push(elem);
    }
    Ok(out)
}

fn backlen_size(len: usize) -> usize {
    match len {
        0..=127 => 1,
        128..=16382 => 2,
        16383..=2097150 => 3,
        2097151..=268435454 => 4,
        _ => 5,
    }
}

/// Appends `len` as Redis' `lpEncodeBacklen` does.
fn put_backlen(out: &mut Vec<u8>, len: usize) {
    let n = backlen_size(len);
    for i in (0..n).rev() {
        let part = ((len >> (7 * i)) & 127) as u8;
        // The first byte written is the most significant; all but it carry the high bit.
        out.push(if i == n - 1 { part } else { part | 128 });
    }
}

/// Builds a listpack element by element.
pub(crate) struct Builder {
    buf: Vec<u8>,
    count: usize,
}

impl Builder {
    pub fn new() -> Builder {
        Builder { buf: vec![0; HEADER], count: 0 }
    }

    pub fn int(&mut self, v: i64) {
        let start = self.buf.len();
        if (0..=127).contains(&v) {
            self.buf.push(v as u8);
        } else if (-4096..=4095).contains(&v) {
            let u = (v as u16) & 0x1fff;
            self.buf.extend_from_slice(&[0xC0 | (u >> 8) as u8, u as u8]);
        } else if let Ok(n) = i16::try_from(v) {
            self.buf.push(0xF1);
            self.buf.extend_from_slice(&n.to_le_bytes());
        } else if (-(1 << 23)..(1 << 23)).contains(&v) {
            self.buf.push(0xF2);
            self.buf.extend_from_slice(&(v as i32).to_le_bytes()[..3]);
        } else if let Ok(n) = i32::try_from(v) {
            self.buf.push(0xF3);
            self.buf.extend_from_slice(&n.to_le_bytes());
        } else {
            self.buf.push(0xF4);
            self.buf.extend_from_slice(&v.to_le_bytes());
        }
        self.end_entry(start);
    }

    pub fn str(&mut self, s: &[u8]) {
        let start = self.buf.len();
        let n = s.len();
        if n < 64 {
            self.buf.push(0x80 | n as u8);
        } else if n < 4096 {
            self.buf.extend_from_slice(&[0xE0 | (n >> 8) as u8, n as u8]);
        } else {
            self.buf.push(0xF0);
            self.buf.extend_from_slice(&(n as u32).to_le_bytes());
        }
        self.buf.extend_from_slice(s);
        self.end_entry(start);
    }

    fn end_entry(&mut self, start: usize) {
        let len = self.buf.len() - start;
        put_backlen(&mut self.buf, len);
        self.count += 1;
    }

    pub fn finish(mut self) -> Vec<u8> {
        self.buf.push(END);
        let total = self.buf.len() as u32;
        self.buf[0..4].copy_from_slice(&total.to_le_bytes());
        // 65535 means "count unknown", as Redis stores a larger count.
        let count = self.count.min(u16::MAX as usize) as u16;
        self.buf[4..6].copy_from_slice(&count.to_le_bytes());
        self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_encoding_round_trips() {
        let ints = [0, 127, 128, -1, 4095, -4096, 4096, -4097, 32767, -32768, 40000, -(1 << 23), (1 << 23) - 1, 1 << 23, i32::MIN as i64, i32::MAX as i64 + 1, i64::MIN, i64::MAX];
        let big = vec![7u8; 5000];
        let mid = vec![b'm'; 200];
        let mut b = Builder::new();
        for &v in &ints {
            b.int(v);
        }
        b.str(b"");
        b.str(b"short");
        b.str(&mid);
        b.str(&big);
        let lp = b.finish();
        let got = elements(&lp).unwrap();
        let mut want: Vec<Elem<'_>> = ints.iter().map(|&v| Elem::Int(v)).collect();
        want.extend([Elem::Str(b""), Elem::Str(b"short"), Elem::Str(&mid), Elem::Str(&big)]);
        assert_eq!(got, want);
    }

    #[test]
    fn backlen_as_redis_writes_it() {
        let mut out = Vec::new();
        put_backlen(&mut out, 5);
        put_backlen(&mut out, 200);
        // 200 = 1 * 128 + 72: first byte 1, then 72 with the high bit.
        assert_eq!(out, vec![5, 1, 72 | 128]);
    }

    #[test]
    fn damaged_listpacks_are_errors() {
        let mut b = Builder::new();
        b.str(b"hello");
        let lp = b.finish();
        assert!(elements(&lp[..lp.len() - 1]).is_err());
        let mut bad = lp.clone();
        bad[6] = 0x80 | 40; // a string longer than the blob
        assert!(elements(&bad).is_err());
        let mut bad = lp;
        bad[6] = 0xF5;
        assert!(elements(&bad).is_err());
    }
}
