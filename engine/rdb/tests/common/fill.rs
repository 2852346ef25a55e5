//! Fills a Redis with every type in every encoding Redis 7.0 saves: int-encoded and LZF
//! strings, binary-safe bytes, listpack and quicklist lists (a plain node too), intset and
//! hashtable sets, listpack and skiplist sorted sets and hashes, streams over several nodes
//! with deleted entries, groups, pending entries and consumers; TTLs; three databases; and
//! a function library (FUNCTION2).

use super::resp::Conn;

fn ok(c: &mut Conn, args: &[&[u8]]) {
    if let Err(e) = c.ok(args) {
        panic!("{:?}: {e}", args.iter().map(|a| String::from_utf8_lossy(a)).collect::<Vec<_>>());
    }
}

/// Pseudorandom bytes (xorshift), incompressible by LZF.
pub fn noise(n: usize, mut seed: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect()
}

pub fn fill(c: &mut Conn) {
    let binary: Vec<u8> = (0..=255u8).chain(*b"\r\n\0end").collect();
    let lzf = b"abcdefgh-".repeat(20000);
    let random = noise(50_000, 7);
    for (k, v) in [
        (&b"plain"[..], &b"hello world"[..]),
        (b"int", b"12345"),
        (b"negint", b"-42"),
        (b"i64", b"9223372036854775807"),
        (b"int8", b"7"),
        (b"empty", b""),
        (b"binary", &binary),
        (b"lzf", &lzf),
        (b"random", &random),
        (b"key with \0 and \r\n", b"v"),
    ] {
        ok(c, &[b"SET", k, v]);
    }
    ok(c, &[b"SET", b"ttl_str", b"soon", b"PX", b"3600000"]);
    ok(c, &[b"RPUSH", b"list_small", b"a", b"b", b"1", b"-2", b"300000", b"", b"9223372036854775807"]);
    let mut cmd: Vec<Vec<u8>> = vec![b"RPUSH".to_vec(), b"list_big".to_vec()];
    cmd.extend((0..2000).map(|i| if i % 3 == 0 { i.to_string().into_bytes() } else { format!("element-{i}-{}", "x".repeat(i % 50)).into_bytes() }));
    ok(c, &cmd.iter().map(|v| v.as_slice()).collect::<Vec<_>>());
    // A plain quicklist node: an element past the packed threshold.
    ok(c, &[b"DEBUG", b"QUICKLIST-PACKED-THRESHOLD", b"1000"]);
    ok(c, &[b"RPUSH", b"list_plain", b"small", &b"P".repeat(5000), b"after"]);
    ok(c, &[b"SADD", b"set_int", b"1", b"2", b"3", b"-5", b"100000", b"-9223372036854775808"]);
    ok(c, &[b"SADD", b"set_str", b"a", b"b", b"c", &binary]);
    let mut cmd: Vec<Vec<u8>> = vec![b"SADD".to_vec(), b"set_big".to_vec()];
    cmd.extend((0..300).map(|i| format!("member-{i}").into_bytes()));
    ok(c, &cmd.iter().map(|v| v.as_slice()).collect::<Vec<_>>());
    ok(c, &[b"ZADD", b"zset_small", b"1.5", b"a", b"-2", b"b", b"inf", b"c", b"-inf", b"d", b"0.1", b"e", b"3", b"f"]);
    let mut cmd: Vec<Vec<u8>> = vec![b"ZADD".to_vec(), b"zset_big".to_vec()];
    for i in 0..300 {
        cmd.push(format!("{}", i as f64 * 0.37 - 20.0).into_bytes());
        cmd.push(format!("m{i}").into_bytes());
    }
    ok(c, &cmd.iter().map(|v| v.as_slice()).collect::<Vec<_>>());
    ok(c, &[b"HSET", b"hash_small", b"f1", b"v1", b"f2", b"", b"n", b"42", b"bin\0\r\n", b"\xff\x00"]);
    ok(c, &[b"HSET", b"hash_long_value", b"f", &b"L".repeat(100), &binary, b"bin"]);
    let mut cmd: Vec<Vec<u8>> = vec![b"HSET".to_vec(), b"hash_big".to_vec()];
    for i in 0..600 {
        cmd.push(format!("field-{i}").into_bytes());
        cmd.push(format!("value-{i}").into_bytes());
    }
    ok(c, &cmd.iter().map(|v| v.as_slice()).collect::<Vec<_>>());
    ok(c, &[b"HSET", b"ttl_hash", b"a", b"b"]);
    ok(c, &[b"PEXPIRE", b"ttl_hash", b"7200000"]);
    // A stream over several nodes: two field sets, some entries deleted.
    for i in 1..=250u64 {
        let id = format!("{}-{}", 1_700_000_000_000 + i / 3, i % 3);
        let v = i.to_string();
        if i % 4 == 0 {
            ok(c, &[b"XADD", b"stream", id.as_bytes(), b"other", v.as_bytes()]);
        } else {
            ok(c, &[b"XADD", b"stream", id.as_bytes(), b"temp", v.as_bytes(), b"name", b"sensor"]);
        }
    }
    ok(c, &[b"XDEL", b"stream", b"1700000000001-0", b"1700000000010-1"]);
    ok(c, &[b"XGROUP", b"CREATE", b"stream", b"g1", b"0"]);
    ok(c, &[b"XREADGROUP", b"GROUP", b"g1", b"alice", b"COUNT", b"10", b"STREAMS", b"stream", b">"]);
    ok(c, &[b"XREADGROUP", b"GROUP", b"g1", b"bob", b"COUNT", b"5", b"STREAMS", b"stream", b">"]);
    ok(c, &[b"XACK", b"stream", b"g1", b"1700000000002-0", b"1700000000003-0"]);
    ok(c, &[b"XGROUP", b"CREATE", b"stream", b"g2", b"$"]);
    ok(c, &[b"XGROUP", b"CREATECONSUMER", b"stream", b"g2", b"carol"]);
    ok(c, &[b"XADD", b"stream_emptied", b"5-1", b"a", b"1"]);
    ok(c, &[b"XDEL", b"stream_emptied", b"5-1"]);
    ok(c, &[b"SELECT", b"1"]);
    ok(c, &[b"SET", b"db1_key", b"one"]);
    ok(c, &[b"SET", b"db1_ttl", b"x", b"EX", b"86400"]);
    ok(c, &[b"RPUSH", b"db1_list", b"x"]);
    ok(c, &[b"SELECT", b"15"]);
    ok(c, &[b"SET", b"db15_key", b"fifteen"]);
    ok(c, &[b"SELECT", b"0"]);
    ok(c, &[b"FUNCTION", b"LOAD", b"#!lua name=rdblib\nredis.register_function('one', function() return 1 end)"]);
}
