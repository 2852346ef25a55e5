//! SLOWLOG GET/LEN/RESET/HELP and its two settings at the wire, with exact bytes: what is
//! logged, how arguments are cut (32 at most, 128 bytes each, as Redis), what is redacted.

mod common;

use common::TestServer;

/// One entry's reply after its id: `:<unix>\r\n:<usec>\r\n`, whose values vary, split off.
fn split_entry(reply: &[u8], id: u64) -> (u64, String) {
    let text = String::from_utf8_lossy(reply).to_string();
    let head = format!("*6\r\n:{id}\r\n:");
    let rest = text.strip_prefix(&head).unwrap_or_else(|| panic!("entry {id}: {text:?}"));
    let (_unix, rest) = rest.split_once("\r\n:").unwrap();
    let (usec, rest) = rest.split_once("\r\n").unwrap();
    (usec.parse().unwrap(), rest.to_string())
}

#[tokio::test]
async fn slow_commands_are_logged_with_their_arguments_cut() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"CONFIG GET slowlog-log-slower-than\r\n", b"*2\r\n$23\r\nslowlog-log-slower-than\r\n$5\r\n10000\r\n").await;
    c.expect(b"CONFIG GET slowlog-max-len\r\n", b"*2\r\n$15\r\nslowlog-max-len\r\n$3\r\n128\r\n").await;
    c.expect(b"SLOWLOG LEN\r\nSLOWLOG GET\r\n", b":0\r\n*0\r\n").await;
    c.expect(b"SLOWLOG GET -2\r\n", b"-ERR count should be greater than or equal to -1\r\n").await;
    c.expect(b"SLOWLOG NOPE\r\n", b"-ERR unknown subcommand 'NOPE'. Try SLOWLOG HELP.\r\n").await;
    c.expect(b"CONFIG SET slowlog-log-slower-than abc\r\n", b"-ERR CONFIG SET failed (possibly related to argument 'slowlog-log-slower-than') - argument couldn't be parsed into an integer\r\n").await;

    // A fast command stays out; DEBUG SLEEP 0.2 goes in, with its time.
    c.expect(b"CONFIG SET slowlog-log-slower-than 100000\r\nSET k v\r\n", b"+OK\r\n+OK\r\n").await;
    c.expect(b"DEBUG SLEEP 0.2\r\nSLOWLOG LEN\r\n", b"+OK\r\n:1\r\n").await;
    c.send(b"SLOWLOG GET\r\n").await;
    let all = c.next_reply().await;
    assert!(all.starts_with(b"*1\r\n"), "{:?}", String::from_utf8_lossy(&all));
    let (usec, rest) = split_entry(&all[4..], 0);
    assert!(usec >= 200_000, "{usec}");
    c.send(b"CLIENT INFO\r\n").await;
    let info = String::from_utf8(c.next_reply().await).unwrap();
    let peer = info.split(' ').find_map(|f| f.strip_prefix("addr=")).unwrap().to_string();
    assert_eq!(rest, format!("*3\r\n$5\r\nDEBUG\r\n$5\r\nSLEEP\r\n$3\r\n0.2\r\n${}\r\n{peer}\r\n$0\r\n\r\n", peer.len()));

    // Every command from here (0 µs); a value is cut to 128 bytes and says how many more.
    c.expect(b"CONFIG SET slowlog-log-slower-than 0\r\n", b"+OK\r\n").await;
    let value = "v".repeat(200);
    c.expect(format!("CLIENT SETNAME app\r\nSET big {value}\r\n").as_bytes(), b"+OK\r\n+OK\r\n").await;
    c.send(b"SLOWLOG GET 1\r\n").await;
    let one = c.next_reply().await;
    let (_, rest) = split_entry(&one[4..], 3);
    let cut = format!("{}... (72 more bytes)", "v".repeat(128));
    assert_eq!(rest, format!("*3\r\n$3\r\nSET\r\n$3\r\nbig\r\n${}\r\n{cut}\r\n${}\r\n{peer}\r\n$3\r\napp\r\n", cut.len(), peer.len()));

    // 40 arguments: 31 kept, the 32nd says how many more.
    let keys: Vec<String> = (0..39).map(|i| format!("k{i}")).collect();
    c.send(format!("DEL {}\r\nSLOWLOG GET 1\r\n", keys.join(" ")).as_bytes()).await;
    assert_eq!(c.next_reply().await, b":0\r\n");
    let one = c.next_reply().await;
    // Each SLOWLOG GET is logged too (ids 4 and 6).
    let (_, rest) = split_entry(&one[4..], 5);
    let mut expected = String::from("*32\r\n$3\r\nDEL\r\n");
    for k in &keys[..30] {
        expected.push_str(&format!("${}\r\n{k}\r\n", k.len()));
    }
    expected.push_str("$22\r\n... (9 more arguments)\r\n");
    assert!(rest.starts_with(&expected), "{rest:?}");

    // A password never reaches the log.
    c.expect(b"AUTH someone secret\r\n", b"-WRONGPASS invalid username-password pair or user is disabled.\r\n").await;
    c.send(b"SLOWLOG GET 1\r\n").await;
    let one = c.next_reply().await;
    let (_, rest) = split_entry(&one[4..], 7);
    assert!(rest.starts_with("*2\r\n$4\r\nAUTH\r\n$10\r\n(redacted)\r\n"), "{rest:?}");

    // slowlog-max-len keeps the newest; RESET empties it.
    c.expect(b"CONFIG SET slowlog-max-len 2\r\nSLOWLOG LEN\r\n", b"+OK\r\n:2\r\n").await;
    c.expect(b"CONFIG SET slowlog-log-slower-than -1\r\nSLOWLOG RESET\r\nSLOWLOG LEN\r\n", b"+OK\r\n+OK\r\n:0\r\n").await;
    c.send(b"SLOWLOG HELP\r\n").await;
    let help = c.next_reply().await;
    assert!(help.starts_with(b"*12\r\n+SLOWLOG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"), "{:?}", String::from_utf8_lossy(&help));
    server.stop().await;
}
