//! memcached item flags are data: a client decodes a value by them (str, int, pickle,
//! compressed), so they must come back after a crash like the value does. The real binary,
//! `fsync always`, items set over `--memcached-port`, then SIGKILL and a restart on the same
//! dir, reading `get`/`gets` byte for byte; the same across a compaction of the segment that
//! held them, with values read back cold from disk, and with encryption at rest (where the
//! flags are sealed with the value). A RESP write over a memcached item leaves flags 0.

mod spawned;
use spawned::*;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

/// A blocking memcached text-protocol client.
struct Mc {
    writer: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Mc {
    fn connect(port: u16) -> Mc {
        let s = TcpStream::connect(("127.0.0.1", port)).expect("connect to the memcached port");
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        Mc { writer: s.try_clone().unwrap(), reader: BufReader::new(s) }
    }

    /// Sends `request` and reads until the reply ends with `end`.
    fn call(&mut self, request: &[u8], end: &str) -> String {
        self.writer.write_all(request).expect("send");
        let mut reply = Vec::new();
        while !reply.ends_with(end.as_bytes()) {
            let n = self.reader.read_until(b'\n', &mut reply).expect("read reply");
            assert!(n > 0, "connection closed; got so far: {:?}", String::from_utf8_lossy(&reply));
        }
        String::from_utf8(reply).unwrap()
    }

    fn expect(&mut self, request: &str, expected: &str) {
        let last = expected.trim_end_matches("\r\n").rsplit("\r\n").next().unwrap().to_string() + "\r\n";
        assert_eq!(self.call(request.as_bytes(), &last), expected, "reply to {request:?}");
    }

    fn set(&mut self, key: &str, flags: u32, value: &[u8]) {
        let mut req = format!("set {key} {flags} 0 {}\r\n", value.len()).into_bytes();
        req.extend_from_slice(value);
        req.extend_from_slice(b"\r\n");
        assert_eq!(self.call(&req, "\r\n"), "STORED\r\n", "set {key}");
    }

    /// `gets key`: (flags, value, cas unique).
    fn gets(&mut self, key: &str) -> Option<(u32, Vec<u8>, u64)> {
        self.writer.write_all(format!("gets {key}\r\n").as_bytes()).unwrap();
        let mut head = String::new();
        self.reader.read_line(&mut head).unwrap();
        if head == "END\r\n" {
            return None;
        }
        let parts: Vec<&str> = head.trim_end().split(' ').collect();
        assert_eq!((parts.len(), parts[0], parts[1]), (5, "VALUE", key), "gets header {head:?}");
        let len: usize = parts[3].parse().unwrap();
        let mut data = vec![0u8; len + 2];
        self.reader.read_exact(&mut data).unwrap();
        assert!(data.ends_with(b"\r\n"));
        data.truncate(len);
        let mut end = String::new();
        self.reader.read_line(&mut end).unwrap();
        assert_eq!(end, "END\r\n");
        Some((parts[2].parse().unwrap(), data, parts[4].parse().unwrap()))
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The server with a memcached port (plus `flags`); returns it and that port.
fn start(dir: &Path, flags: &[&str]) -> (Engine, u16) {
    let port = free_port();
    let mut args = vec!["--memcached-port".to_string(), port.to_string(), "--fsync".into(), "always".into()];
    args.extend(flags.iter().map(|f| f.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let engine = Engine::start(dir, &args);
    (engine, port)
}

fn segments(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("wal-") && n.ends_with(".log"))
        .collect();
    names.sort();
    names
}

fn logs_contain(dir: &Path, needle: &[u8]) -> bool {
    segments(dir).iter().any(|n| std::fs::read(dir.join(n)).unwrap().windows(needle.len()).any(|w| w == needle))
}

/// A flags value whose stored form (prefix tag 5, u32 LE) is easy to find in a segment.
const MARKED_FLAGS: u32 = 0xC0FF_EE11;
const MARKED_STORED: [u8; 5] = [5, 0x11, 0xEE, 0xFF, 0xC0];

/// Writes the items every scenario checks, over both protocols.
fn write_items(mc: &mut Mc, resp: &mut Resp) {
    mc.set("str", 0, b"plain text");
    mc.set("pickled", 1, b"\x80\x04K*.");
    mc.set("max", u32::MAX, b"all bits");
    mc.set("marked", MARKED_FLAGS, b"find me");
    // Flags without a value: still kept.
    mc.set("empty", 77, b"");
    // append/prepend and incr keep the item's flags (memcached ignores the given ones).
    mc.set("joined", 16, b"mid");
    mc.expect("append joined 0 0 4\r\n-end\r\n", "STORED\r\n");
    mc.expect("prepend joined 9 0 6\r\nstart-\r\n", "STORED\r\n");
    mc.set("count", 2, b"10");
    mc.expect("incr count 5\r\n", "15\r\n");
    // An exptime in the future: flags and expiry together.
    mc.expect("set ttl 3 1000 2\r\nok\r\n", "STORED\r\n");
    // touch changes the expiry, not the flags.
    mc.set("touched", 5, b"t");
    mc.expect("touch touched 2000\r\n", "TOUCHED\r\n");
    // Set with flags, then set again without: flags 0.
    mc.set("cleared", 8, b"a");
    mc.set("cleared", 0, b"b");
    // A RESP write over a memcached item: flags 0, as documented.
    mc.set("resp-set", 11, b"mc");
    assert_eq!(resp.cmd(&[b"SET", b"resp-set", b"from resp"]), Reply::Status("OK".into()));
    mc.set("resp-append", 12, b"mc");
    assert_eq!(resp.cmd(&[b"APPEND", b"resp-append", b"+resp"]), Reply::Int(7));
    // RESP reads the data alone.
    assert_eq!(resp.cmd(&[b"GET", b"pickled"]), Reply::Bulk(Some(b"\x80\x04K*.".to_vec())));
    assert_eq!(resp.cmd(&[b"GET", b"joined"]), Reply::Bulk(Some(b"start-mid-end".to_vec())));
}

/// The exact `get` reply for every item `write_items` wrote.
const EXPECTED_GET: &str = "VALUE str 0 10\r\nplain text\r\n\
VALUE pickled 1 5\r\n\x04K*.\r\n\
VALUE max 4294967295 8\r\nall bits\r\n\
VALUE marked 3237998097 7\r\nfind me\r\n\
VALUE empty 77 0\r\n\r\n\
VALUE joined 16 13\r\nstart-mid-end\r\n\
VALUE count 2 2\r\n15\r\n\
VALUE ttl 3 2\r\nok\r\n\
VALUE touched 5 1\r\nt\r\n\
VALUE cleared 0 1\r\nb\r\n\
VALUE resp-set 0 9\r\nfrom resp\r\n\
VALUE resp-append 0 7\r\nmc+resp\r\n\
END\r\n";

const GET_ALL: &str = "get str pickled max marked empty joined count ttl touched cleared resp-set resp-append\r\n";

/// Checks every item, byte for byte, and that `gets` agrees and `cas` works after a restart.
fn check_items(mc: &mut Mc, resp: &mut Resp, when: &str) {
    // The pickled value starts with byte 0x80, not UTF-8: compare it apart.
    let mut req = GET_ALL.as_bytes().to_vec();
    mc.writer.write_all(&req).unwrap();
    let mut got = Vec::new();
    while !got.ends_with(b"END\r\n") {
        assert!(mc.reader.read_until(b'\n', &mut got).unwrap() > 0, "{when}: connection closed");
    }
    let mut expected = EXPECTED_GET.as_bytes().to_vec();
    let at = expected.windows(4).position(|w| w == b"\x04K*.").unwrap();
    expected.insert(at, 0x80);
    assert_eq!(String::from_utf8_lossy(&got), String::from_utf8_lossy(&expected), "{when}: get");
    assert_eq!(got, expected, "{when}: get, bytes");

    let (flags, data, unique) = mc.gets("max").expect("max is there");
    assert_eq!((flags, data.as_slice()), (u32::MAX, &b"all bits"[..]), "{when}: gets max");
    assert_eq!(mc.gets("max").unwrap().2, unique, "{when}: two gets agree on the unique");
    // A cas with the unique just read stores; the given flags replace the old ones.
    req = format!("cas max 21 0 3 {unique}\r\nnew\r\n").into_bytes();
    assert_eq!(mc.call(&req, "\r\n"), "STORED\r\n", "{when}: cas");
    mc.expect("get max\r\n", "VALUE max 21 3\r\nnew\r\nEND\r\n");
    mc.set("max", u32::MAX, b"all bits");
    assert_eq!(resp.cmd(&[b"GET", b"marked"]), Reply::Bulk(Some(b"find me".to_vec())), "{when}: RESP GET");
}

/// Writes the items, then `rounds` times: check them all, SIGKILL, restart on the same dir.
fn write_then_kill9_and_check(dir: &Path, flags: &[&str], rounds: usize, label: &str) {
    for round in 0..rounds {
        let (mut engine, port) = start(dir, flags);
        let mut mc = Mc::connect(port);
        let mut resp = engine.connect();
        if round == 0 {
            write_items(&mut mc, &mut resp);
        }
        check_items(&mut mc, &mut resp, &format!("{label}round {round}"));
        // What a kill -9 must not take back: every write above was acknowledged.
        engine.kill9();
    }
}

#[test]
fn flags_survive_kill9_under_fsync_always() {
    let dir = TempDir::new("mcflags-kill9");
    write_then_kill9_and_check(&dir.0, &[], 3, "");
    assert!(logs_contain(&dir.0, &MARKED_STORED), "flags are in the log, after the value's prefix tag");
}

fn big(i: u32) -> Vec<u8> {
    format!("{i:05}-{}", "v".repeat(16 * 1024 - 6)).into_bytes()
}

/// Reads the 300 big items (most of them cold: they do not fit the bound) and every other item.
fn check_big(mc: &mut Mc, resp: &mut Resp, when: &str) {
    let misses = |resp: &mut Resp| -> u64 { resp.info_field("memory", "cache_misses").unwrap().parse().unwrap() };
    let before = misses(resp);
    for i in 0..300 {
        let (flags, data, _) = mc.gets(&format!("big:{i}")).expect("big item is there");
        assert_eq!(flags, 1000 + i, "{when}: flags of big:{i}");
        assert!(data == big(i), "{when}: value of big:{i}");
    }
    let after = misses(resp);
    eprintln!("{when}: cache misses {before} -> {after}");
    assert!(after > before + 100, "{when}: most big items were read cold from disk");
    check_items(mc, resp, when);
}

#[test]
fn flags_survive_compaction_and_cold_reads() {
    let dir = TempDir::new("mcflags-compact");
    let bound = ["--maxmemory", "2mb"];
    let (mut engine, port) = start(&dir.0, &bound);
    let mut mc = Mc::connect(port);
    let mut resp = engine.connect();
    write_items(&mut mc, &mut resp);
    // 300 items of 16 KiB with their own flags: 4.9 MB of values under a 2 MB bound.
    for i in 0..300 {
        mc.set(&format!("big:{i}"), 1000 + i, &big(i));
    }
    // 36 overwrites of one 4 MiB key: the log passes 128 MiB, mostly dead, so the oldest
    // segment (all the items above) is compacted: its live records are written again.
    let filler = vec![b'f'; 4 << 20];
    for _ in 0..36 {
        assert_eq!(resp.cmd(&[b"SET", b"filler", &filler]), Reply::Status("OK".into()));
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while resp.info_field("persistence", "wal_compactions").as_deref() == Some("0") {
        assert!(Instant::now() < deadline, "no compaction within 60 s");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!segments(&dir.0).contains(&"wal-0000000001.log".to_string()), "the first segment was compacted away");
    check_big(&mut mc, &mut resp, "after compaction");
    engine.kill9();

    // Replay places what fits in memory; the rest stays on disk with its flags in the index.
    let (_engine, port) = start(&dir.0, &bound);
    let mut mc = Mc::connect(port);
    let mut resp = _engine.connect();
    check_big(&mut mc, &mut resp, "after compaction and kill -9");
}

#[test]
fn flags_survive_restart_with_encryption_sealed() {
    let keys = TempDir::new("mcflags-keys");
    let key = keys.0.join("at-rest.key");
    std::fs::write(&key, "5a".repeat(32)).unwrap();
    let key = key.to_str().unwrap().to_string();
    let dir = TempDir::new("mcflags-sealed");
    write_then_kill9_and_check(&dir.0, &["--encryption-key-file", &key], 2, "encrypted, ");
    assert!(!logs_contain(&dir.0, &MARKED_STORED), "flags are in the log in the clear");
    assert!(!logs_contain(&dir.0, b"find me"), "a value is in the log in the clear");
}
