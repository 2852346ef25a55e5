//! Numbers as Redis reads and writes them: strict signed integers (`string2ll`), floats that
//! refuse NaN, and formatting without allocation.

/// Redis' `string2ll`: optional `-`, digits, no leading zeros (except "0"), no `+`, no spaces,
/// and no overflow.
pub fn parse_i64(s: &[u8]) -> Option<i64> {
    if s.is_empty() || s.len() > 20 {
        return None;
    }
    if s == b"0" {
        return Some(0);
    }
    let (negative, digits) = match s[0] {
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    match digits.first() {
        Some(b'1'..=b'9') => {}
        _ => return None,
    }
    let mut value: u64 = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        value = value.checked_mul(10)?.checked_add((b - b'0') as u64)?;
    }
    if negative {
        if value > i64::MAX as u64 + 1 {
            return None;
        }
        Some((value as i64).wrapping_neg())
    } else {
        i64::try_from(value).ok()
    }
}

/// A float as Redis' `strtod`-based parsers accept it: `inf`, `-inf`, `+inf`, decimals and
/// exponents; never NaN, never surrounding spaces.
pub fn parse_f64(s: &[u8]) -> Option<f64> {
    // Long enough for any plain-notation double INCRBYFLOAT may have stored (up to ~330 chars).
    if s.is_empty() || s.len() > 4096 {
        return None;
    }
    let text = std::str::from_utf8(s).ok()?;
    if text.starts_with(|c: char| c.is_whitespace()) || text.ends_with(|c: char| c.is_whitespace()) {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    match lower.as_str() {
        "inf" | "+inf" | "infinity" | "+infinity" => return Some(f64::INFINITY),
        "-inf" | "-infinity" => return Some(f64::NEG_INFINITY),
        _ => {}
    }
    if lower.contains("nan") || lower.contains("inf") {
        return None;
    }
    let v: f64 = text.parse().ok()?;
    if v.is_nan() {
        None
    } else {
        Some(v)
    }
}

/// Append the decimal digits of `v`.
pub fn push_i64(out: &mut Vec<u8>, v: i64) {
    let mut buf = [0u8; 20];
    let mut pos = buf.len();
    let negative = v < 0;
    let mut n = v.unsigned_abs();
    loop {
        pos -= 1;
        buf[pos] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if negative {
        out.push(b'-');
    }
    out.extend_from_slice(&buf[pos..]);
}

/// Append `v` as Redis 7.0 replies with a double: C's `%.17g` (17 significant digits, trailing
/// zeros cut, exponent form below 1e-4 and from 1e17), so `0.1` reads `0.10000000000000001`.
pub fn push_f64(out: &mut Vec<u8>, v: f64) {
    use std::io::Write;
    if v.is_infinite() {
        out.extend_from_slice(if v > 0.0 { b"inf" } else { b"-inf" });
        return;
    }
    if v == v.trunc() && v.abs() < 1e17 {
        push_i64(out, v as i64);
        return;
    }
    // The exponent of the value rounded to 17 digits decides the form, as in C.
    let sci = format!("{v:.16e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..17).contains(&exp) {
        let fixed = format!("{v:.*}", (16 - exp) as usize);
        out.extend_from_slice(trim_fraction(&fixed).as_bytes());
    } else {
        let _ = write!(out, "{}e{}{:02}", trim_fraction(mantissa), if exp < 0 { '-' } else { '+' }, exp.abs());
    }
}

/// `%g`'s trimming: trailing zeros of the fraction, then a bare point.
fn trim_fraction(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// Append `v` as INCRBYFLOAT stores it: plain decimal, no exponent, trailing zeros cut.
/// Redis computes in `long double` and prints 17 digits, so `0.1 + 0.2` shows as `0.3`; with
/// `f64` the same result needs 15 significant digits (`%.15g`), which is what is printed here.
pub fn push_f64_human(out: &mut Vec<u8>, v: f64) {
    use std::io::Write;
    if v == v.trunc() && v.abs() < 1e17 {
        push_i64(out, v as i64);
        return;
    }
    // Round to 15 significant digits, then print that value in plain notation.
    let rounded: f64 = format!("{v:.14e}").parse().unwrap_or(v);
    let _ = write!(out, "{rounded}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_integers() {
        assert_eq!(parse_i64(b"0"), Some(0));
        assert_eq!(parse_i64(b"-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_i64(b"9223372036854775807"), Some(i64::MAX));
        for bad in [&b"9223372036854775808"[..], b"-0", b"01", b"+1", b" 1", b"1 ", b"", b"-", b"1a"] {
            assert_eq!(parse_i64(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn formatting() {
        let fmt = |v: f64| {
            let mut o = Vec::new();
            push_f64(&mut o, v);
            String::from_utf8(o).unwrap()
        };
        assert_eq!(fmt(1.5), "1.5");
        assert_eq!(fmt(3.0), "3");
        assert_eq!(fmt(-0.25), "-0.25");
        assert_eq!(fmt(f64::INFINITY), "inf");
        assert_eq!(fmt(1e20), "1e+20");
        // %.17g, as Redis 7.0 (the values printf gives).
        assert_eq!(fmt(0.1), "0.10000000000000001");
        assert_eq!(fmt(0.653_291_404_551_496_5), "0.65329140455149648");
        assert_eq!(fmt(1e-5), "1.0000000000000001e-05");
        assert_eq!(fmt(0.0001), "0.0001");
        assert_eq!(fmt(1.2345678901234568e17), "1.2345678901234568e+17");
        assert_eq!(fmt(-3.5e-7), "-3.4999999999999998e-07");
        let mut o = Vec::new();
        push_i64(&mut o, i64::MIN);
        assert_eq!(o, b"-9223372036854775808");
        assert_eq!(parse_f64(b"nan"), None);
        let mut o = Vec::new();
        push_f64_human(&mut o, 0.1 + 0.2);
        assert_eq!(o, b"0.3");
        assert_eq!(parse_f64(b"-inf"), Some(f64::NEG_INFINITY));
    }
}
