//! Request encoding straight into a connection's write buffer, and reply scanning in place:
//! a scan only finds where a whole reply ends and what kind it is; nothing is copied.

use crate::cli::Protocol;

/// What a complete reply was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A status, integer, double, boolean or similar.
    Status,
    /// A null (`$-1`, `*-1`, `_`), or a memcached miss (`END` alone).
    Nil,
    /// A bulk string or an aggregate (a hit).
    Value,
    /// An error reply (`-ERR`, `!`, `ERROR`, `SERVER_ERROR` ...).
    Error,
    /// A RESP3 push; not an answer to a request.
    Push,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtoError(pub String);

impl std::fmt::Display for ProtoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "protocol error: {}", self.0)
    }
}

/// `Ok(None)`: the buffer holds no complete reply yet.
pub type Scan = Result<Option<(usize, Reply)>, ProtoError>;

const MAX_DEPTH: usize = 64;

#[inline]
fn find_crlf(buf: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    loop {
        let nl = i + memchr::memchr(b'\n', &buf[i..])?;
        if nl > from && buf[nl - 1] == b'\r' {
            return Some(nl - 1);
        }
        i = nl + 1;
    }
}

fn parse_int(bytes: &[u8]) -> Result<i64, ProtoError> {
    let (neg, digits) = match bytes.first() {
        Some(b'-') => (true, &bytes[1..]),
        Some(b'+') => (false, &bytes[1..]),
        _ => (false, bytes),
    };
    if digits.is_empty() || digits.len() > 18 {
        return Err(ProtoError(format!("bad length '{}'", String::from_utf8_lossy(bytes))));
    }
    let mut n: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return Err(ProtoError(format!("bad length '{}'", String::from_utf8_lossy(bytes))));
        }
        n = n * 10 + (d - b'0') as i64;
    }
    Ok(if neg { -n } else { n })
}

/// Scan one RESP2/RESP3 reply at the start of `buf`.
pub fn scan_resp(buf: &[u8]) -> Scan {
    scan_at(buf, 0, 0)
}

fn scan_at(buf: &[u8], pos: usize, depth: usize) -> Result<Option<(usize, Reply)>, ProtoError> {
    if depth > MAX_DEPTH {
        return Err(ProtoError("replies nested too deeply".into()));
    }
    if pos >= buf.len() {
        return Ok(None);
    }
    let Some(cr) = find_crlf(buf, pos) else { return Ok(None) };
    let header = &buf[pos + 1..cr];
    let after = cr + 2;
    match buf[pos] {
        b'+' | b':' | b',' | b'#' | b'(' => Ok(Some((after, Reply::Status))),
        b'-' => Ok(Some((after, Reply::Error))),
        b'_' => Ok(Some((after, Reply::Nil))),
        b'$' | b'=' | b'!' => {
            let len = parse_int(header)?;
            if len < 0 {
                return Ok(Some((after, Reply::Nil)));
            }
            let end = after + len as usize + 2;
            if buf.len() < end {
                return Ok(None);
            }
            if &buf[end - 2..end] != b"\r\n" {
                return Err(ProtoError("bulk string not followed by CRLF".into()));
            }
            let kind = if buf[pos] == b'!' { Reply::Error } else { Reply::Value };
            Ok(Some((end, kind)))
        }
        b'*' | b'~' | b'>' | b'%' | b'|' => {
            let n = parse_int(header)?;
            if n < 0 || (n == 0 && matches!(buf[pos], b'*' | b'%' | b'~')) {
                // A null or an empty aggregate (HGETALL of a missing key) is a miss.
                return Ok(Some((after, Reply::Nil)));
            }
            let items = if matches!(buf[pos], b'%' | b'|') { n as usize * 2 } else { n as usize };
            let mut at = after;
            for _ in 0..items {
                match scan_at(buf, at, depth + 1)? {
                    Some((end, _)) => at = end,
                    None => return Ok(None),
                }
            }
            match buf[pos] {
                b'>' => Ok(Some((at, Reply::Push))),
                // An attribute annotates the reply that follows it.
                b'|' => scan_at(buf, at, depth + 1),
                _ => Ok(Some((at, Reply::Value))),
            }
        }
        other => Err(ProtoError(format!("unexpected reply type byte 0x{other:02x}"))),
    }
}

/// Scan one memcached text reply at the start of `buf`.
pub fn scan_memcache(buf: &[u8]) -> Scan {
    let mut pos = 0;
    let mut values = 0;
    loop {
        let Some(cr) = find_crlf(buf, pos) else { return Ok(None) };
        let line = &buf[pos..cr];
        let after = cr + 2;
        if line.starts_with(b"VALUE ") {
            let len_field = line
                .split(|&b| b == b' ')
                .nth(3)
                .ok_or_else(|| ProtoError("VALUE line without a length".into()))?;
            let len = parse_int(len_field)?;
            if len < 0 {
                return Err(ProtoError("negative VALUE length".into()));
            }
            let end = after + len as usize + 2;
            if buf.len() < end {
                return Ok(None);
            }
            values += 1;
            pos = end;
            continue;
        }
        let kind = match line {
            b"END" => {
                if values > 0 {
                    Reply::Value
                } else {
                    Reply::Nil
                }
            }
            b"STORED" | b"NOT_STORED" | b"EXISTS" | b"NOT_FOUND" | b"DELETED" | b"TOUCHED" | b"OK" => Reply::Status,
            l if l == b"ERROR" || l.starts_with(b"CLIENT_ERROR") || l.starts_with(b"SERVER_ERROR") => Reply::Error,
            l => {
                return Err(ProtoError(format!(
                    "unexpected memcached reply '{}'",
                    String::from_utf8_lossy(&l[..l.len().min(64)])
                )))
            }
        };
        return Ok(Some((after, kind)));
    }
}

pub fn scan(protocol: Protocol, buf: &[u8]) -> Scan {
    match protocol {
        Protocol::MemcacheText => scan_memcache(buf),
        _ => scan_resp(buf),
    }
}

/// The text of an error reply, for reports (first line, without the type byte).
pub fn error_text(reply: &[u8]) -> String {
    let start = usize::from(matches!(reply.first(), Some(b'-') | Some(b'!')));
    let line_end = reply.iter().position(|&b| b == b'\r').unwrap_or(reply.len());
    let mut text = &reply[start.min(line_end)..line_end];
    if reply.first() == Some(&b'!') {
        // A blob error: the text is on the next line.
        let body_start = (line_end + 2).min(reply.len());
        let body_end = reply[body_start..].iter().position(|&b| b == b'\r').map(|p| body_start + p).unwrap_or(reply.len());
        text = &reply[body_start..body_end];
    }
    String::from_utf8_lossy(&text[..text.len().min(200)]).into_owned()
}

/// Decimal digits of `n` into a stack buffer; returns the used tail.
#[inline]
pub fn digits(n: u64, tmp: &mut [u8; 20]) -> &[u8] {
    let mut i = tmp.len();
    let mut v = n;
    loop {
        i -= 1;
        tmp[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    &tmp[i..]
}

#[inline]
pub fn push_uint(buf: &mut Vec<u8>, n: u64) {
    let mut tmp = [0u8; 20];
    buf.extend_from_slice(digits(n, &mut tmp));
}

#[inline]
pub fn push_bulk_header(buf: &mut Vec<u8>, len: usize) {
    buf.push(b'$');
    push_uint(buf, len as u64);
    buf.extend_from_slice(b"\r\n");
}

/// A RESP bulk argument made of a key prefix and a key number, without building the key.
#[inline]
pub fn push_key_arg(buf: &mut Vec<u8>, prefix: &[u8], keynum: u64) {
    let mut tmp = [0u8; 20];
    let d = digits(keynum, &mut tmp);
    push_bulk_header(buf, prefix.len() + d.len());
    buf.extend_from_slice(prefix);
    buf.extend_from_slice(d);
    buf.extend_from_slice(b"\r\n");
}

#[inline]
pub fn push_bulk(buf: &mut Vec<u8>, arg: &[u8]) {
    push_bulk_header(buf, arg.len());
    buf.extend_from_slice(arg);
    buf.extend_from_slice(b"\r\n");
}

#[inline]
pub fn push_array_header(buf: &mut Vec<u8>, n: usize) {
    buf.push(b'*');
    push_uint(buf, n as u64);
    buf.extend_from_slice(b"\r\n");
}

/// A whole command from its arguments (used for handshakes and YCSB).
pub fn encode_command(buf: &mut Vec<u8>, args: &[&[u8]]) {
    push_array_header(buf, args.len());
    for a in args {
        push_bulk(buf, a);
    }
}

/// `SET key value` (or memcached `set key 0 0 len`). Returns the bytes appended.
#[inline]
pub fn encode_set(buf: &mut Vec<u8>, protocol: Protocol, prefix: &[u8], keynum: u64, value: &[u8]) -> usize {
    let start = buf.len();
    match protocol {
        Protocol::MemcacheText => {
            let mut tmp = [0u8; 20];
            buf.extend_from_slice(b"set ");
            buf.extend_from_slice(prefix);
            buf.extend_from_slice(digits(keynum, &mut tmp));
            buf.extend_from_slice(b" 0 0 ");
            push_uint(buf, value.len() as u64);
            buf.extend_from_slice(b"\r\n");
            buf.extend_from_slice(value);
            buf.extend_from_slice(b"\r\n");
        }
        _ => {
            buf.extend_from_slice(b"*3\r\n$3\r\nSET\r\n");
            push_key_arg(buf, prefix, keynum);
            push_bulk(buf, value);
        }
    }
    buf.len() - start
}

/// `GET key` (or memcached `get key`). Returns the bytes appended.
#[inline]
pub fn encode_get(buf: &mut Vec<u8>, protocol: Protocol, prefix: &[u8], keynum: u64) -> usize {
    let start = buf.len();
    match protocol {
        Protocol::MemcacheText => {
            let mut tmp = [0u8; 20];
            buf.extend_from_slice(b"get ");
            buf.extend_from_slice(prefix);
            buf.extend_from_slice(digits(keynum, &mut tmp));
            buf.extend_from_slice(b"\r\n");
        }
        _ => {
            buf.extend_from_slice(b"*2\r\n$3\r\nGET\r\n");
            push_key_arg(buf, prefix, keynum);
        }
    }
    buf.len() - start
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resp_kinds_and_lengths() {
        assert_eq!(scan_resp(b"+OK\r\n"), Ok(Some((5, Reply::Status))));
        assert_eq!(scan_resp(b"$-1\r\n"), Ok(Some((5, Reply::Nil))));
        assert_eq!(scan_resp(b"$3\r\nabc\r\n+OK"), Ok(Some((9, Reply::Value))));
        assert_eq!(scan_resp(b"$3\r\nab"), Ok(None));
        assert_eq!(scan_resp(b"-ERR x\r\n"), Ok(Some((8, Reply::Error))));
        assert_eq!(scan_resp(b"*2\r\n$1\r\na\r\n:1\r\n"), Ok(Some((15, Reply::Value))));
        assert_eq!(scan_resp(b"*2\r\n$1\r\na\r\n"), Ok(None));
        assert_eq!(scan_resp(b"%1\r\n+a\r\n+b\r\n"), Ok(Some((12, Reply::Value))));
        assert_eq!(scan_resp(b"_\r\n"), Ok(Some((3, Reply::Nil))));
        assert_eq!(scan_resp(b"*0\r\n"), Ok(Some((4, Reply::Nil))));
        assert_eq!(scan_resp(b">2\r\n+a\r\n+b\r\n"), Ok(Some((12, Reply::Push))));
        assert_eq!(scan_resp(b"|1\r\n+a\r\n+b\r\n+OK\r\n"), Ok(Some((17, Reply::Status))));
        assert!(scan_resp(b"?x\r\n").is_err());
        assert!(scan_resp(b"$abc\r\n").is_err());
    }

    #[test]
    fn memcache_kinds() {
        assert_eq!(scan_memcache(b"STORED\r\n"), Ok(Some((8, Reply::Status))));
        assert_eq!(scan_memcache(b"END\r\n"), Ok(Some((5, Reply::Nil))));
        let hit = b"VALUE k 0 3\r\nabc\r\nEND\r\n";
        assert_eq!(scan_memcache(hit), Ok(Some((hit.len(), Reply::Value))));
        assert_eq!(scan_memcache(&hit[..10]), Ok(None));
        assert_eq!(scan_memcache(b"SERVER_ERROR out of memory\r\n").unwrap().unwrap().1, Reply::Error);
    }

    #[test]
    fn encodes_set_and_get() {
        let mut b = Vec::new();
        encode_set(&mut b, Protocol::Resp2, b"k:", 42, b"v");
        assert_eq!(b, b"*3\r\n$3\r\nSET\r\n$4\r\nk:42\r\n$1\r\nv\r\n");
        b.clear();
        encode_get(&mut b, Protocol::MemcacheText, b"", 7);
        assert_eq!(b, b"get 7\r\n");
        assert_eq!(error_text(b"-WRONGPASS bad\r\n"), "WRONGPASS bad");
    }
}
