//! LZF decompression (Marc Lehmann's format, as Redis' `lzf_d.c` reads it), for strings Redis
//! saved compressed. No maintained crate does it (the `lzf` crate is deprecated); it is small.

/// Decompresses `input` into exactly `out_len` bytes, or says why it cannot.
pub fn decompress(input: &[u8], out_len: usize) -> Result<Vec<u8>, &'static str> {
    // Each 3 input bytes give at most 264 output bytes: a larger claim is a lie.
    if out_len > input.len().saturating_mul(90).saturating_add(64) {
        return Err("decompressed length is impossible for the compressed length");
    }
    let mut out = Vec::with_capacity(out_len);
    let mut i = 0;
    while i < input.len() {
        let ctrl = input[i] as usize;
        i += 1;
        if ctrl < 32 {
            let run = ctrl + 1;
            if i + run > input.len() {
                return Err("literal run past the end of the compressed data");
            }
            if out.len() + run > out_len {
                return Err("data longer than its stated length");
            }
            out.extend_from_slice(&input[i..i + run]);
            i += run;
        } else {
            let mut len = ctrl >> 5;
            if len == 7 {
                len += *input.get(i).ok_or("back reference cut short")? as usize;
                i += 1;
            }
            len += 2;
            let low = *input.get(i).ok_or("back reference cut short")? as usize;
            i += 1;
            let back = ((ctrl & 0x1f) << 8) + low + 1;
            if back > out.len() {
                return Err("back reference before the start of the data");
            }
            if out.len() + len > out_len {
                return Err("data longer than its stated length");
            }
            // The reference may overlap the bytes it produces: copy what exists, then again.
            let (mut from, mut left) = (out.len() - back, len);
            while left > 0 {
                let n = left.min(out.len() - from);
                out.extend_from_within(from..from + n);
                from += n;
                left -= n;
            }
        }
    }
    if out.len() != out_len {
        return Err("data shorter than its stated length");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::decompress;

    #[test]
    fn literal_and_overlapping_back_reference() {
        // "abc" literal, then a back reference of length 7+2=9... here 3+2=5 at distance 3.
        let input = [2, b'a', b'b', b'c', (3 << 5), 2];
        assert_eq!(decompress(&input, 8).unwrap(), b"abcabcab");
        // Long form: len 7 + extra 10 = 17, +2 = 19 bytes from distance 1.
        let input = [0, b'x', (7 << 5), 10, 0];
        assert_eq!(decompress(&input, 20).unwrap(), vec![b'x'; 20]);
    }

    #[test]
    fn hostile_inputs_are_errors() {
        assert!(decompress(&[2, b'a'], 3).is_err());
        assert!(decompress(&[(1 << 5), 0], 3).is_err());
        assert!(decompress(&[0, b'a'], 2).is_err());
        assert!(decompress(&[0, b'a', (7 << 5)], 12).is_err());
        assert!(decompress(&[0, b'a'], 1 << 40).is_err());
    }
}
