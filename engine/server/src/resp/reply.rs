//! Replies in RESP2 or RESP3, written into one output buffer per pipeline.
//!
//! Each method writes the RESP3 type when the connection said `HELLO 3` and the RESP2 form
//! Redis uses otherwise (a map is a flat array, a double a bulk string, null `$-1`).

use super::number::{push_f64, push_i64};

/// The output buffer of a connection and the protocol version it speaks.
pub struct Reply {
    pub out: Vec<u8>,
    pub resp3: bool,
}

impl Reply {
    pub fn new() -> Reply {
        Reply { out: Vec::with_capacity(16 * 1024), resp3: false }
    }

    fn line(&mut self, prefix: u8, n: i64) {
        self.out.push(prefix);
        push_i64(&mut self.out, n);
        self.out.extend_from_slice(b"\r\n");
    }

    /// `+OK`-style simple string; `s` must not contain CR or LF.
    pub fn simple(&mut self, s: &str) {
        self.out.push(b'+');
        self.out.extend_from_slice(s.as_bytes());
        self.out.extend_from_slice(b"\r\n");
    }

    pub fn ok(&mut self) {
        self.out.extend_from_slice(b"+OK\r\n");
    }

    /// An error; `msg` starts with its code (`ERR ...`, `WRONGTYPE ...`). CR/LF become spaces,
    /// as Redis does, so a reply is always one line.
    pub fn error(&mut self, msg: &str) {
        self.out.push(b'-');
        self.out.extend(msg.bytes().map(|b| if b == b'\r' || b == b'\n' { b' ' } else { b }));
        self.out.extend_from_slice(b"\r\n");
    }

    pub fn int(&mut self, n: i64) {
        self.line(b':', n);
    }

    pub fn bulk(&mut self, data: &[u8]) {
        self.line(b'$', data.len() as i64);
        self.out.extend_from_slice(data);
        self.out.extend_from_slice(b"\r\n");
    }

    /// A bulk string holding the decimal digits of `n` (as `INCRBYFLOAT` and `CONFIG GET` reply).
    pub fn bulk_i64(&mut self, n: i64) {
        let mut digits = Vec::with_capacity(20);
        push_i64(&mut digits, n);
        self.bulk(&digits);
    }

    /// The null bulk string: `$-1` in RESP2, `_` in RESP3.
    pub fn null(&mut self) {
        if self.resp3 {
            self.out.extend_from_slice(b"_\r\n");
        } else {
            self.out.extend_from_slice(b"$-1\r\n");
        }
    }

    /// An out-of-band push of `len` items (pub/sub): `>` in RESP3, an array in RESP2.
    pub fn push(&mut self, len: usize) {
        self.line(if self.resp3 { b'>' } else { b'*' }, len as i64);
    }

    /// The null array: `*-1` in RESP2, `_` in RESP3.
    pub fn null_array(&mut self) {
        if self.resp3 {
            self.out.extend_from_slice(b"_\r\n");
        } else {
            self.out.extend_from_slice(b"*-1\r\n");
        }
    }

    pub fn array(&mut self, len: usize) {
        self.line(b'*', len as i64);
    }

    /// A map of `pairs` entries: `%n` in RESP3, a flat array of 2n in RESP2.
    pub fn map(&mut self, pairs: usize) {
        if self.resp3 {
            self.line(b'%', pairs as i64);
        } else {
            self.line(b'*', 2 * pairs as i64);
        }
    }

    /// A set: `~n` in RESP3, an array in RESP2.
    pub fn set(&mut self, len: usize) {
        self.line(if self.resp3 { b'~' } else { b'*' }, len as i64);
    }

    /// A double: `,1.5` in RESP3, a bulk string in RESP2.
    pub fn double(&mut self, v: f64) {
        let mut text = Vec::with_capacity(24);
        push_f64(&mut text, v);
        if self.resp3 {
            self.out.push(b',');
            self.out.extend_from_slice(&text);
            self.out.extend_from_slice(b"\r\n");
        } else {
            self.bulk(&text);
        }
    }

    /// A boolean: `#t` in RESP3, `:1`/`:0` in RESP2.
    pub fn boolean(&mut self, v: bool) {
        if self.resp3 {
            self.out.extend_from_slice(if v { b"#t\r\n" } else { b"#f\r\n" });
        } else {
            self.int(v as i64);
        }
    }

    /// Text for humans (INFO, CLIENT INFO): a verbatim string in RESP3, a bulk string in RESP2.
    pub fn verbatim(&mut self, text: &[u8]) {
        self.verbatim_as(b"txt", text);
    }

    /// A verbatim string of a three-letter `format` (`txt`, `mkd`): `=` in RESP3, a bulk
    /// string of the text alone in RESP2.
    pub fn verbatim_as(&mut self, format: &[u8], text: &[u8]) {
        if self.resp3 {
            self.line(b'=', (text.len() + format.len() + 1) as i64);
            self.out.extend_from_slice(format);
            self.out.push(b':');
            self.out.extend_from_slice(text);
            self.out.extend_from_slice(b"\r\n");
        } else {
            self.bulk(text);
        }
    }

    /// A big number (its decimal digits, no CR or LF): `(` in RESP3, a bulk string in RESP2.
    pub fn big_number(&mut self, digits: &[u8]) {
        if self.resp3 {
            self.out.push(b'(');
            self.out.extend_from_slice(digits);
            self.out.extend_from_slice(b"\r\n");
        } else {
            self.bulk(digits);
        }
    }

    /// An attribute of `pairs` entries ahead of a reply: `|n` in RESP3; RESP2 has none, so
    /// the caller writes the pairs only to a RESP3 client.
    pub fn attribute(&mut self, pairs: usize) {
        self.line(b'|', pairs as i64);
    }
}

impl Default for Reply {
    fn default() -> Self {
        Reply::new()
    }
}
