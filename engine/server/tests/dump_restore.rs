//! DUMP and RESTORE at the wire: a payload round-trips every type (with TTL, ABSTTL, REPLACE),
//! and RESTORE answers an error for every bad argument or payload (truncated, bit-flipped,
//! another format) without changing anything. Error replies are the bytes redis-server 7.0.15
//! gave to the same request; the payload bytes are Basalt's own format (version + CRC32), so
//! only their round trip is compared.

mod common;

use common::TestServer;

/// The bulk string's content of a `$n\r\n...\r\n` reply.
fn bulk(reply: &[u8]) -> Vec<u8> {
    let at = reply.iter().position(|&b| b == b'\n').unwrap() + 1;
    reply[at..reply.len() - 2].to_vec()
}

#[tokio::test]
async fn payloads_round_trip_and_bad_ones_are_refused() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"RPUSH l a b c\r\n", b":3\r\n").await;
    c.expect(b"HSET h f v g w\r\n", b":2\r\n").await;
    c.expect(b"ZADD z 1.5 a -2 b\r\n", b":2\r\n").await;
    c.expect(b"SADD s x\r\n", b":1\r\n").await;
    c.expect(b"SET str hello\r\n", b"+OK\r\n").await;
    c.expect(b"DUMP nokey\r\n", b"$-1\r\n").await;
    let mut payloads = Vec::new();
    for key in ["l", "h", "z", "s", "str"] {
        let payload = bulk(&c.call(&[b"DUMP", key.as_bytes()]).await);
        let copy = format!("{key}2");
        assert_eq!(c.call(&[b"RESTORE", copy.as_bytes(), b"0", &payload]).await, b"+OK\r\n");
        // A key that exists needs REPLACE.
        assert_eq!(c.call(&[b"RESTORE", copy.as_bytes(), b"0", &payload]).await, b"-BUSYKEY Target key name already exists.\r\n");
        assert_eq!(c.call(&[b"RESTORE", copy.as_bytes(), b"0", &payload, b"REPLACE"]).await, b"+OK\r\n");
        payloads.push(payload);
    }
    c.expect(b"LRANGE l2 0 -1\r\n", b"*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n").await;
    c.expect(b"HGET h2 g\r\n", b"$1\r\nw\r\n").await;
    c.expect(b"ZRANGE z2 0 -1 WITHSCORES\r\n", b"*4\r\n$1\r\nb\r\n$2\r\n-2\r\n$1\r\na\r\n$3\r\n1.5\r\n").await;
    c.expect(b"SMEMBERS s2\r\n", b"*1\r\n$1\r\nx\r\n").await;
    c.expect(b"GET str2\r\n", b"$5\r\nhello\r\n").await;
    c.expect(b"TTL str2\r\n", b":-1\r\n").await;
    // TTL in ms; ABSTTL with a time already past leaves no key (the replaced one is gone too).
    let list = payloads[0].clone();
    assert_eq!(c.call(&[b"RESTORE", b"t", b"100000", &list]).await, b"+OK\r\n");
    let pttl = String::from_utf8(c.call(&[b"PTTL", b"t"]).await).unwrap();
    let pttl: i64 = pttl.trim_start_matches(':').trim().parse().unwrap();
    assert!((99_000..=100_000).contains(&pttl), "{pttl}");
    assert_eq!(c.call(&[b"RESTORE", b"t", b"1000", &list, b"REPLACE", b"ABSTTL"]).await, b"+OK\r\n");
    c.expect(b"EXISTS t\r\n", b":0\r\n").await;
    // Errors in Redis' order: options, BUSYKEY, TTL, then the payload.
    c.expect(b"RESTORE str 0 x\r\n", b"-BUSYKEY Target key name already exists.\r\n").await;
    c.expect(b"RESTORE n -1 x\r\n", b"-ERR Invalid TTL value, must be >= 0\r\n").await;
    c.expect(b"RESTORE n x x\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"RESTORE n 0 x\r\n", b"-ERR DUMP payload version or checksum are wrong\r\n").await;
    c.expect(b"RESTORE n 0 x foo\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"RESTORE n 0 x REPLACE ABSTTL\r\n", b"-ERR DUMP payload version or checksum are wrong\r\n").await;
    // Basalt's own: its access clock cannot be set.
    c.expect(b"RESTORE n 0 x IDLETIME 5\r\n", b"-ERR RESTORE IDLETIME and FREQ are not supported\r\n").await;
    // Every truncation and every single-bit flip of every payload is refused.
    let checksum = b"-ERR DUMP payload version or checksum are wrong\r\n".to_vec();
    for payload in &payloads {
        for cut in 0..payload.len() {
            assert_eq!(c.call(&[b"RESTORE", b"n", b"0", &payload[..cut]]).await, checksum, "cut {cut}");
        }
        for i in 0..payload.len() {
            for bit in 0..8 {
                let mut bad = payload.clone();
                bad[i] ^= 1 << bit;
                let reply = c.call(&[b"RESTORE", b"n", b"0", &bad]).await;
                assert!(reply.starts_with(b"-ERR "), "byte {i} bit {bit}: {:?}", String::from_utf8_lossy(&reply));
            }
        }
    }
    c.expect(b"EXISTS n\r\n", b":0\r\n").await;
    // Arity and the command table.
    c.expect(b"DUMP\r\n", b"-ERR wrong number of arguments for 'dump' command\r\n").await;
    c.expect(b"RESTORE a 0\r\n", b"-ERR wrong number of arguments for 'restore' command\r\n").await;
    let info = c.call(&[b"COMMAND", b"INFO", b"restore"]).await;
    assert!(String::from_utf8_lossy(&info).contains("@dangerous"), "{}", String::from_utf8_lossy(&info));
    assert!(String::from_utf8_lossy(&c.call(&[b"COMMAND", b"DOCS", b"dump"]).await).contains("serialized"));
    server.stop().await;
}
