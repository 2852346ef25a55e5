//! Framing of memcached text-protocol requests: a command line ending in `\r\n` (a bare `\n`
//! is accepted, as memcached does), followed for storage commands by a data block of the
//! announced length and `\r\n`. "Incomplete" is a normal answer; bad input is a reply
//! worded as memcached words it, never a panic.

/// Longest command line; a longer one is refused and the connection closed (memcached
/// allows 2048 bytes except for long multi-key `get` lines, which this bound covers).
pub const MAX_LINE: usize = 64 * 1024;
/// Largest value (memcached's default `-I 1m`).
pub const ITEM_SIZE_MAX: usize = 1 << 20;
/// memcached refuses longer keys.
pub const KEY_MAX: usize = 250;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreMode {
    Set,
    Add,
    Replace,
    Append,
    Prepend,
    Cas,
}

impl StoreMode {
    pub fn name(self) -> &'static str {
        match self {
            StoreMode::Set => "set",
            StoreMode::Add => "add",
            StoreMode::Replace => "replace",
            StoreMode::Append => "append",
            StoreMode::Prepend => "prepend",
            StoreMode::Cas => "cas",
        }
    }
}

/// The keys of a get/gat line: its words after the first `skip`, split again when read, so a
/// request holds no list of them (a Vec cost a malloc and a free per get).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keys<'a> {
    line: &'a [u8],
    skip: usize,
}

impl<'a> Keys<'a> {
    pub fn iter(&self) -> impl Iterator<Item = &'a [u8]> + 'a {
        words(self.line).skip(self.skip)
    }
}

/// The words of a request line: what spaces separate (several count as one).
fn words(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|&b| b == b' ').filter(|t| !t.is_empty())
}

#[derive(Debug, PartialEq, Eq)]
pub enum Request<'a> {
    /// get / gets / gat / gats: `touch` holds the new exptime of gat/gats.
    Get { name: &'static str, keys: Keys<'a>, with_cas: bool, touch: Option<i64> },
    Store { mode: StoreMode, key: &'a [u8], flags: u32, exptime: i64, data: &'a [u8], cas: u64, noreply: bool },
    Delete { key: &'a [u8], noreply: bool },
    Incr { key: &'a [u8], delta: u64, decr: bool, noreply: bool },
    Touch { key: &'a [u8], exptime: i64, noreply: bool },
    FlushAll { delay: i64, noreply: bool },
    Version,
    Stats { group: Option<&'a [u8]> },
    Verbosity { noreply: bool },
    Quit,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Parsed<'a> {
    /// More bytes are needed.
    Incomplete,
    /// A request of `len` bytes.
    Request { len: usize, request: Request<'a> },
    /// A request that gets only an error: consume `len` bytes, then skip `swallow` more (the
    /// data block of a refused storage command), reply, and close when told.
    Refused { len: usize, swallow: usize, reply: String, noreply: bool, close: bool },
}

fn refused(len: usize, reply: &str) -> Parsed<'static> {
    Parsed::Refused { len, swallow: 0, reply: reply.to_string(), noreply: false, close: false }
}

const BAD_FORMAT: &str = "CLIENT_ERROR bad command line format";

/// A number as Rust's `str::parse` reads it (an optional sign, then ASCII digits, leading
/// zeros allowed, no overflow), straight from the bytes: a set's three numbers went through
/// UTF-8 validation and `FromStr`, about 300 instructions per request.
trait Number: Sized {
    fn from_bytes(token: &[u8]) -> Option<Self>;
}

/// The value of a non-empty run of ASCII digits, None on anything else or past u64.
fn digits(token: &[u8]) -> Option<u64> {
    if token.is_empty() {
        return None;
    }
    token.iter().try_fold(0u64, |n, &b| {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        n.checked_mul(10)?.checked_add(d as u64)
    })
}

impl Number for u64 {
    fn from_bytes(token: &[u8]) -> Option<u64> {
        digits(token.strip_prefix(b"+").unwrap_or(token))
    }
}

impl Number for u32 {
    fn from_bytes(token: &[u8]) -> Option<u32> {
        u64::from_bytes(token).and_then(|n| u32::try_from(n).ok())
    }
}

impl Number for i64 {
    fn from_bytes(token: &[u8]) -> Option<i64> {
        match token.strip_prefix(b"-") {
            Some(rest) => digits(rest).and_then(|n| i64::try_from(-(n as i128)).ok()),
            None => u64::from_bytes(token).and_then(|n| i64::try_from(n).ok()),
        }
    }
}

fn number<T: Number>(token: &[u8]) -> Option<T> {
    T::from_bytes(token)
}

fn valid_key(key: &[u8]) -> bool {
    !key.is_empty() && key.len() <= KEY_MAX && key.iter().all(|&b| b > b' ' && b != 0x7f)
}

/// Parses one request from the front of `buf`.
pub fn parse(buf: &[u8]) -> Parsed<'_> {
    let Some(nl) = memchr::memchr(b'\n', &buf[..buf.len().min(MAX_LINE + 2)]) else {
        if buf.len() > MAX_LINE {
            return Parsed::Refused { len: buf.len(), swallow: 0, reply: "CLIENT_ERROR line too long".to_string(), noreply: false, close: true };
        }
        return Parsed::Incomplete;
    };
    let line_len = nl + 1;
    let line = if nl > 0 && buf[nl - 1] == b'\r' { &buf[..nl - 1] } else { &buf[..nl] };
    // The words of the line, on the stack up to SMALL of them (every command but a long `get`):
    // collecting them into a Vec cost a malloc and a realloc per request.
    const SMALL: usize = 8;
    let mut small: [&[u8]; SMALL] = [&[]; SMALL];
    let mut many: Vec<&[u8]> = Vec::new();
    let mut count = 0;
    for word in words(line) {
        if count < SMALL {
            small[count] = word;
        } else {
            if many.is_empty() {
                many.extend_from_slice(&small);
            }
            many.push(word);
        }
        count += 1;
    }
    let tokens: &[&[u8]] = if count <= SMALL { &small[..count] } else { &many };
    let Some(&command) = tokens.first() else {
        return refused(line_len, "ERROR");
    };
    let noreply = tokens.len() > 1 && tokens[tokens.len() - 1] == b"noreply";
    let args = &tokens[1..tokens.len() - usize::from(noreply)];
    match command {
        b"get" | b"gets" => {
            if args.is_empty() || !args.iter().all(|k| valid_key(k)) {
                return refused(line_len, if args.is_empty() { "ERROR" } else { BAD_FORMAT });
            }
            let name = if command == b"get" { "get" } else { "gets" };
            Parsed::Request { len: line_len, request: Request::Get { name, keys: Keys { line, skip: 1 }, with_cas: name == "gets", touch: None } }
        }
        b"gat" | b"gats" => {
            let (Some(exptime), true) = (tokens.get(1).and_then(|t| number::<i64>(t)), tokens.len() >= 3) else {
                return refused(line_len, if tokens.len() < 3 { "ERROR" } else { "CLIENT_ERROR invalid exptime argument" });
            };
            if !tokens[2..].iter().all(|k| valid_key(k)) {
                return refused(line_len, BAD_FORMAT);
            }
            let name = if command == b"gat" { "gat" } else { "gats" };
            Parsed::Request { len: line_len, request: Request::Get { name, keys: Keys { line, skip: 2 }, with_cas: name == "gats", touch: Some(exptime) } }
        }
        b"set" | b"add" | b"replace" | b"append" | b"prepend" | b"cas" => storage(buf, line_len, command, args, noreply),
        b"delete" => match args {
            [key] | [key, b"0"] if valid_key(key) => Parsed::Request { len: line_len, request: Request::Delete { key, noreply } },
            _ => refused(line_len, "CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]"),
        },
        b"incr" | b"decr" => match args {
            [key, delta] if valid_key(key) => match number::<u64>(delta) {
                Some(delta) => Parsed::Request { len: line_len, request: Request::Incr { key, delta, decr: command == b"decr", noreply } },
                None => refused(line_len, "CLIENT_ERROR invalid numeric delta argument"),
            },
            _ => refused(line_len, "ERROR"),
        },
        b"touch" => match args {
            [key, exptime] if valid_key(key) => match number::<i64>(exptime) {
                Some(exptime) => Parsed::Request { len: line_len, request: Request::Touch { key, exptime, noreply } },
                None => refused(line_len, "CLIENT_ERROR invalid exptime argument"),
            },
            _ => refused(line_len, "ERROR"),
        },
        b"flush_all" => match args {
            [] => Parsed::Request { len: line_len, request: Request::FlushAll { delay: 0, noreply } },
            [delay] => match number::<i64>(delay) {
                Some(delay) => Parsed::Request { len: line_len, request: Request::FlushAll { delay, noreply } },
                None => refused(line_len, "CLIENT_ERROR bad command line format"),
            },
            _ => refused(line_len, "ERROR"),
        },
        b"version" if args.is_empty() => Parsed::Request { len: line_len, request: Request::Version },
        b"stats" => Parsed::Request { len: line_len, request: Request::Stats { group: tokens.get(1).copied() } },
        b"verbosity" => match args {
            [level] if number::<u32>(level).is_some() => Parsed::Request { len: line_len, request: Request::Verbosity { noreply } },
            _ => refused(line_len, "ERROR"),
        },
        b"quit" => Parsed::Request { len: line_len, request: Request::Quit },
        _ => refused(line_len, "ERROR"),
    }
}

/// `<cmd> <key> <flags> <exptime> <bytes> [<cas unique>] [noreply]` and the data block.
fn storage<'a>(buf: &'a [u8], line_len: usize, command: &[u8], args: &[&'a [u8]], noreply: bool) -> Parsed<'a> {
    let mode = match command {
        b"set" => StoreMode::Set,
        b"add" => StoreMode::Add,
        b"replace" => StoreMode::Replace,
        b"append" => StoreMode::Append,
        b"prepend" => StoreMode::Prepend,
        _ => StoreMode::Cas,
    };
    let want = if mode == StoreMode::Cas { 5 } else { 4 };
    if args.len() != want {
        return refused(line_len, "ERROR");
    }
    let key = args[0];
    let (Some(flags), Some(exptime), Some(bytes)) = (number::<u32>(args[1]), number::<i64>(args[2]), number::<i64>(args[3])) else {
        return refused(line_len, BAD_FORMAT);
    };
    let cas = if mode == StoreMode::Cas {
        match number::<u64>(args[4]) {
            Some(cas) => cas,
            None => return refused(line_len, BAD_FORMAT),
        }
    } else {
        0
    };
    if bytes < 0 || !valid_key(key) {
        // memcached cannot know where the data ends: it refuses and reads on from the next line.
        return refused(line_len, BAD_FORMAT);
    }
    let bytes = bytes as usize;
    if bytes > ITEM_SIZE_MAX {
        return Parsed::Refused {
            len: line_len,
            swallow: bytes + 2,
            reply: "SERVER_ERROR object too large for cache".to_string(),
            noreply,
            close: false,
        };
    }
    let total = line_len + bytes + 2;
    if buf.len() < total {
        return Parsed::Incomplete;
    }
    if &buf[line_len + bytes..total] != b"\r\n" {
        return Parsed::Refused { len: total, swallow: 0, reply: "CLIENT_ERROR bad data chunk".to_string(), noreply: false, close: false };
    }
    let data = &buf[line_len..line_len + bytes];
    Parsed::Request { len: total, request: Request::Store { mode, key, flags, exptime, data, cas, noreply } }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames() {
        assert_eq!(parse(b"get a b"), Parsed::Incomplete);
        match parse(b"get a b\r\nrest") {
            Parsed::Request { len: 9, request: Request::Get { keys, with_cas: false, .. } } => assert_eq!(keys.iter().collect::<Vec<_>>(), vec![&b"a"[..], b"b"]),
            other => panic!("{other:?}"),
        }
        assert_eq!(parse(b"set k 5 0 3\r\nab"), Parsed::Incomplete);
        match parse(b"set k 5 0 3 noreply\r\nabc\r\n") {
            Parsed::Request { len: 26, request: Request::Store { mode: StoreMode::Set, flags: 5, data: b"abc", noreply: true, .. } } => {}
            other => panic!("{other:?}"),
        }
        assert!(matches!(parse(b"set k 0 0 3\r\nabcd\r\n"), Parsed::Refused { reply, .. } if reply == "CLIENT_ERROR bad data chunk"));
        assert!(matches!(parse(b"set k 0 0 2000000\r\n"), Parsed::Refused { swallow: 2000002, .. }));
        assert!(matches!(parse(b"bogus\r\n"), Parsed::Refused { reply, .. } if reply == "ERROR"));
        assert!(matches!(parse(b"incr k x\r\n"), Parsed::Refused { reply, .. } if reply.contains("delta")));
        assert!(matches!(parse(b"cas k 0 0 1 77\r\nx\r\n"), Parsed::Request { request: Request::Store { cas: 77, .. }, .. }));
        assert!(matches!(parse(&[b'x'; MAX_LINE + 10]), Parsed::Refused { close: true, .. }));
        assert!(matches!(parse(b"\r\n"), Parsed::Refused { .. }));
    }

    /// Lines of up to 8 words are read on the stack, longer ones into a Vec: both read every
    /// word, in order, at the edge between them too.
    #[test]
    fn gets_of_many_keys_keep_every_key_in_order() {
        for n in [1usize, 6, 7, 8, 9, 30] {
            let keys: Vec<String> = (0..n).map(|i| format!("key{i}")).collect();
            let line = format!("get {}\r\n", keys.join(" "));
            match parse(line.as_bytes()) {
                Parsed::Request { request: Request::Get { keys: parsed, .. }, .. } => {
                    assert_eq!(parsed.iter().collect::<Vec<_>>(), keys.iter().map(|k| k.as_bytes()).collect::<Vec<_>>(), "{n} keys")
                }
                other => panic!("{n} keys: {other:?}"),
            }
            let line = format!("gat 10 {}\r\n", keys.join(" "));
            assert!(matches!(parse(line.as_bytes()), Parsed::Request { request: Request::Get { keys: parsed, .. }, .. } if parsed.iter().eq(keys.iter().map(|k| k.as_bytes()))));
        }
        assert!(matches!(parse(b"set k 0 0 1 noreply extra words here\r\nx\r\n"), Parsed::Refused { reply, .. } if reply == "ERROR"));
    }

    /// Numbers read as `str::parse` reads them, signs, zeros and overflow included.
    #[test]
    fn numbers_read_as_str_parse_reads_them() {
        let tokens: &[&str] = &["0", "7", "+7", "-7", "-0", "+", "-", "", "007", "1x", " 1", "1 ", "++1", "+-1", "4294967295",
            "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            "18446744073709551615", "18446744073709551616", "000000000000000000000000000042", "\u{661}", "é"];
        for t in tokens {
            assert_eq!(number::<u64>(t.as_bytes()), t.parse::<u64>().ok(), "u64 {t:?}");
            assert_eq!(number::<u32>(t.as_bytes()), t.parse::<u32>().ok(), "u32 {t:?}");
            assert_eq!(number::<i64>(t.as_bytes()), t.parse::<i64>().ok(), "i64 {t:?}");
        }
    }

    /// Arbitrary bytes never panic, and a parsed length never runs past the buffer.
    #[test]
    fn random_input_is_safe() {
        let words: &[&[u8]] = &[b"get ", b"gets ", b"set ", b"cas ", b"incr ", b"gat ", b"delete ", b"k ", b"0 ", b"-1 ",
            b"99999999999999999999 ", b"3 ", b"noreply", b"\r\n", b"\n", b"abc", b"\x00", b" ", b"flush_all ", b"touch "];
        let mut seed = 0x9e3779b97f4a7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let mut buf = Vec::new();
            for _ in 0..(next() % 12) {
                if next() % 4 == 0 {
                    buf.push(next() as u8);
                } else {
                    buf.extend_from_slice(words[(next() % words.len() as u64) as usize]);
                }
            }
            match parse(&buf) {
                Parsed::Incomplete => {}
                Parsed::Request { len, .. } => assert!(len > 0 && len <= buf.len()),
                Parsed::Refused { len, .. } => assert!(len <= buf.len().max(1)),
            }
        }
    }
}
