//! Framing of client requests: multibulk (`*2\r\n$3\r\nGET\r\n$1\r\nk\r\n`) and inline
//! (`GET k\r\n`). `parse_frame` never panics on any input: it answers "a frame of N bytes",
//! "incomplete, need at least M bytes" or a protocol error worded as Redis words it.

use std::fmt;
use std::ops::Range;

/// Longest line Redis accepts before the `\r\n` of an inline request or a length header.
pub const MAX_INLINE_LEN: usize = 64 * 1024;
/// Redis' `proto-max-bulk-len` default: 512 MB.
pub const MAX_BULK_LEN: usize = 512 * 1024 * 1024;

/// Size limits applied while framing; unauthenticated clients get smaller ones (as in Redis).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_bulk_len: usize,
    pub max_multibulk_len: i64,
    /// When set, the Redis messages for unauthenticated clients are used.
    pub unauthenticated: bool,
}

impl Limits {
    pub const DEFAULT: Limits =
        Limits { max_bulk_len: MAX_BULK_LEN, max_multibulk_len: i32::MAX as i64, unauthenticated: false };
    /// What Redis allows a client that still has to authenticate.
    pub const UNAUTHENTICATED: Limits =
        Limits { max_bulk_len: 16384, max_multibulk_len: 10, unauthenticated: true };
}

/// A protocol error. After it the connection gets the error reply and is closed, as in Redis.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProtocolError {
    TooBigInline,
    TooBigMultibulkCount,
    TooBigBulkCount,
    InvalidMultibulkLength,
    InvalidBulkLength,
    UnauthenticatedMultibulkLength,
    UnauthenticatedBulkLength,
    ExpectedDollar(u8),
    UnbalancedQuotes,
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::TooBigInline => f.write_str("Protocol error: too big inline request"),
            ProtocolError::TooBigMultibulkCount => f.write_str("Protocol error: too big mbulk count string"),
            ProtocolError::TooBigBulkCount => f.write_str("Protocol error: too big bulk count string"),
            ProtocolError::InvalidMultibulkLength => f.write_str("Protocol error: invalid multibulk length"),
            ProtocolError::InvalidBulkLength => f.write_str("Protocol error: invalid bulk length"),
            ProtocolError::UnauthenticatedMultibulkLength => {
                f.write_str("Protocol error: unauthenticated multibulk length")
            }
            ProtocolError::UnauthenticatedBulkLength => f.write_str("Protocol error: unauthenticated bulk length"),
            ProtocolError::ExpectedDollar(c) => {
                // Redis prints the byte with %c; keep the reply a valid one-line error.
                let shown = if c.is_ascii_graphic() || *c == b' ' { *c as char } else { '?' };
                write!(f, "Protocol error: expected '$', got '{shown}'")
            }
            ProtocolError::UnbalancedQuotes => f.write_str("Protocol error: unbalanced quotes in request"),
        }
    }
}

impl std::error::Error for ProtocolError {}

/// The outcome of looking at the buffered bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parsed {
    /// A whole frame of this many bytes; its arguments are in the `Frame` (maybe none: an empty
    /// inline line or `*0`, which the caller skips).
    Complete(usize),
    /// Not all of the frame is buffered yet; at least this many bytes are needed in total.
    Incomplete(usize),
}

/// Where the arguments of the last parsed frame are. Reused from frame to frame so that a
/// pipeline of commands costs no allocation once the vectors have grown.
#[derive(Default, Debug)]
pub struct Frame {
    spans: Vec<Range<usize>>,
    /// Inline requests may unescape quoted arguments, so their bytes live here.
    inline: Vec<u8>,
    is_inline: bool,
}

impl Frame {
    pub fn new() -> Frame {
        Frame::default()
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    pub fn is_inline(&self) -> bool {
        self.is_inline
    }

    /// The arguments, borrowed from `buf` (the buffer passed to `parse_frame`).
    pub fn args<'a>(&'a self, buf: &'a [u8]) -> Args<'a> {
        let base = if self.is_inline { &self.inline[..] } else { buf };
        Args { base, spans: &self.spans }
    }
}

/// A command's arguments; `args[0]` is the command name.
#[derive(Clone, Copy)]
pub struct Args<'a> {
    base: &'a [u8],
    spans: &'a [Range<usize>],
}

impl<'a> Args<'a> {
    /// Arguments at `spans` of `base` (owned copies: `OwnedArgs`).
    pub fn from_parts(base: &'a [u8], spans: &'a [Range<usize>]) -> Args<'a> {
        Args { base, spans }
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Argument `i`; panics if out of range (callers check arity first, through the table).
    pub fn get(&self, i: usize) -> &'a [u8] {
        &self.base[self.spans[i].clone()]
    }

    /// Argument `i` if present.
    pub fn try_get(&self, i: usize) -> Option<&'a [u8]> {
        self.spans.get(i).map(|r| &self.base[r.clone()])
    }

    pub fn iter(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        let base = self.base;
        self.spans.iter().map(move |r| &base[r.clone()])
    }

    /// Arguments from `start` on.
    pub fn tail(&self, start: usize) -> Args<'a> {
        Args { base: self.base, spans: &self.spans[start.min(self.spans.len())..] }
    }
}

impl fmt::Debug for Args<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter().map(String::from_utf8_lossy)).finish()
    }
}

/// Look at `buf` and find the next frame. On `Complete` the frame's arguments are in `frame`.
pub fn parse_frame(buf: &[u8], frame: &mut Frame, limits: Limits) -> Result<Parsed, ProtocolError> {
    frame.spans.clear();
    frame.is_inline = false;
    match buf.first() {
        None => Ok(Parsed::Incomplete(1)),
        Some(b'*') => parse_multibulk(buf, frame, limits),
        Some(_) => parse_inline(buf, frame),
    }
}

/// Position of the first `\r` at or after `from`, as Redis' `strchr(..., '\r')`.
fn find_cr(buf: &[u8], from: usize) -> Option<usize> {
    buf[from..].iter().position(|&b| b == b'\r').map(|p| p + from)
}

/// Redis' `string2ll`: optional `-`, decimal digits, no leading zeros, no `+`, no spaces.
pub fn parse_i64_strict(s: &[u8]) -> Option<i64> {
    super::number::parse_i64(s)
}

fn parse_multibulk(buf: &[u8], frame: &mut Frame, limits: Limits) -> Result<Parsed, ProtocolError> {
    let Some(cr) = find_cr(buf, 0) else {
        if buf.len() > MAX_INLINE_LEN {
            return Err(ProtocolError::TooBigMultibulkCount);
        }
        return Ok(Parsed::Incomplete(buf.len() + 1));
    };
    // Redis wants the two bytes of "\r\n" buffered before it reads the count.
    if cr + 2 > buf.len() {
        return Ok(Parsed::Incomplete(cr + 2));
    }
    let count = match parse_i64_strict(&buf[1..cr]) {
        Some(n) if n <= i32::MAX as i64 => n,
        _ => return Err(ProtocolError::InvalidMultibulkLength),
    };
    if count > limits.max_multibulk_len {
        return Err(if limits.unauthenticated {
            ProtocolError::UnauthenticatedMultibulkLength
        } else {
            ProtocolError::InvalidMultibulkLength
        });
    }
    let mut pos = cr + 2;
    if count <= 0 {
        return Ok(Parsed::Complete(pos));
    }
    frame.spans.reserve((count as usize).min(1024));
    for _ in 0..count {
        let Some(cr) = find_cr(buf, pos) else {
            if buf.len() - pos > MAX_INLINE_LEN {
                return Err(ProtocolError::TooBigBulkCount);
            }
            return Ok(Parsed::Incomplete(buf.len() + 1));
        };
        if cr + 2 > buf.len() {
            return Ok(Parsed::Incomplete(cr + 2));
        }
        if buf[pos] != b'$' {
            return Err(ProtocolError::ExpectedDollar(buf[pos]));
        }
        let len = match parse_i64_strict(&buf[pos + 1..cr]) {
            Some(n) if n >= 0 && (n as u64) <= MAX_BULK_LEN as u64 => n as usize,
            _ => return Err(ProtocolError::InvalidBulkLength),
        };
        if len > limits.max_bulk_len {
            return Err(if limits.unauthenticated {
                ProtocolError::UnauthenticatedBulkLength
            } else {
                ProtocolError::InvalidBulkLength
            });
        }
        let start = cr + 2;
        // Redis skips the two bytes after the data without looking at them; so do we.
        let end = start + len;
        if end + 2 > buf.len() {
            return Ok(Parsed::Incomplete(end + 2));
        }
        frame.spans.push(start..end);
        pos = end + 2;
    }
    Ok(Parsed::Complete(pos))
}

fn parse_inline(buf: &[u8], frame: &mut Frame) -> Result<Parsed, ProtocolError> {
    let Some(nl) = buf.iter().position(|&b| b == b'\n') else {
        if buf.len() > MAX_INLINE_LEN {
            return Err(ProtocolError::TooBigInline);
        }
        return Ok(Parsed::Incomplete(buf.len() + 1));
    };
    let mut line = &buf[..nl];
    if line.last() == Some(&b'\r') {
        line = &line[..line.len() - 1];
    }
    frame.is_inline = true;
    frame.inline.clear();
    split_args(line, &mut frame.inline, &mut frame.spans)?;
    Ok(Parsed::Complete(nl + 1))
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t' | 0x0b | 0x0c)
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Redis' `sdssplitargs`: words split by spaces, "double quotes" with C escapes and `\xHH`,
/// 'single quotes' with `\'`; a closing quote must be followed by a space or the end.
pub fn split_args(line: &[u8], out: &mut Vec<u8>, spans: &mut Vec<Range<usize>>) -> Result<(), ProtocolError> {
    let mut i = 0;
    let n = line.len();
    loop {
        while i < n && is_space(line[i]) {
            i += 1;
        }
        if i >= n {
            return Ok(());
        }
        let start = out.len();
        let mut in_double = false;
        let mut in_single = false;
        loop {
            if in_double {
                if i >= n {
                    return Err(ProtocolError::UnbalancedQuotes);
                }
                let c = line[i];
                if c == b'\\' && i + 3 < n && line[i + 1] == b'x' {
                    if let (Some(h), Some(l)) = (hex_value(line[i + 2]), hex_value(line[i + 3])) {
                        out.push(h * 16 + l);
                        i += 4;
                        continue;
                    }
                }
                if c == b'\\' && i + 1 < n {
                    let e = match line[i + 1] {
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        b'b' => 0x08,
                        b'a' => 0x07,
                        other => other,
                    };
                    out.push(e);
                    i += 2;
                } else if c == b'"' {
                    if i + 1 < n && !is_space(line[i + 1]) {
                        return Err(ProtocolError::UnbalancedQuotes);
                    }
                    i += 1;
                    break;
                } else {
                    out.push(c);
                    i += 1;
                }
            } else if in_single {
                if i >= n {
                    return Err(ProtocolError::UnbalancedQuotes);
                }
                let c = line[i];
                if c == b'\\' && i + 1 < n && line[i + 1] == b'\'' {
                    out.push(b'\'');
                    i += 2;
                } else if c == b'\'' {
                    if i + 1 < n && !is_space(line[i + 1]) {
                        return Err(ProtocolError::UnbalancedQuotes);
                    }
                    i += 1;
                    break;
                } else {
                    out.push(c);
                    i += 1;
                }
            } else {
                if i >= n {
                    break;
                }
                match line[i] {
                    b' ' | b'\n' | b'\r' | b'\t' | 0 => {
                        i += 1;
                        break;
                    }
                    b'"' => in_double = true,
                    b'\'' => in_single = true,
                    c => out.push(c),
                }
                i += 1;
            }
        }
        spans.push(start..out.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(input: &[u8]) -> Result<(Parsed, Vec<Vec<u8>>), ProtocolError> {
        let mut f = Frame::new();
        let p = parse_frame(input, &mut f, Limits::DEFAULT)?;
        let args = f.args(input).iter().map(|a| a.to_vec()).collect();
        Ok((p, args))
    }

    #[test]
    fn multibulk_and_incomplete() {
        let full = b"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n";
        let (p, args) = parse(full).unwrap();
        assert_eq!(p, Parsed::Complete(full.len()));
        assert_eq!(args, vec![b"GET".to_vec(), b"k".to_vec()]);
        for cut in 0..full.len() {
            assert!(matches!(parse(&full[..cut]).unwrap().0, Parsed::Incomplete(_)), "cut {cut}");
        }
    }

    #[test]
    fn inline_with_quotes() {
        let (p, args) = parse(b"SET \"a b\" 'c\\'d' \"\\x41\\n\"\r\nrest").unwrap();
        assert_eq!(p, Parsed::Complete(27));
        assert_eq!(args, vec![b"SET".to_vec(), b"a b".to_vec(), b"c'd".to_vec(), b"A\n".to_vec()]);
        assert_eq!(parse(b"SET \"a\r\n").unwrap_err(), ProtocolError::UnbalancedQuotes);
        assert_eq!(parse(b"SET \"a\"b\r\n").unwrap_err(), ProtocolError::UnbalancedQuotes);
    }

    #[test]
    fn errors_are_worded_as_redis() {
        assert_eq!(parse(b"*x\r\n").unwrap_err().to_string(), "Protocol error: invalid multibulk length");
        assert_eq!(parse(b"*1\r\n+a\r\n").unwrap_err().to_string(), "Protocol error: expected '$', got '+'");
        assert_eq!(parse(b"*1\r\n$-1\r\n").unwrap_err().to_string(), "Protocol error: invalid bulk length");
        assert_eq!(
            parse(b"*1\r\n$536870913\r\n").unwrap_err().to_string(),
            "Protocol error: invalid bulk length"
        );
        assert!(matches!(parse(b"*1\r\n$536870912\r\n").unwrap().0, Parsed::Incomplete(n) if n == 16 + MAX_BULK_LEN + 2));
        let long = vec![b'a'; MAX_INLINE_LEN + 1];
        assert_eq!(parse(&long).unwrap_err(), ProtocolError::TooBigInline);
    }

    #[test]
    fn empty_frames() {
        assert_eq!(parse(b"*0\r\n").unwrap(), (Parsed::Complete(4), vec![]));
        assert_eq!(parse(b"*-1\r\n").unwrap(), (Parsed::Complete(5), vec![]));
        assert_eq!(parse(b"\r\n").unwrap(), (Parsed::Complete(2), vec![]));
    }
}
