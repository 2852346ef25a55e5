//! Byte-exact RESP at the wire: a server on 127.0.0.1:0, raw requests, exact reply bytes.

mod common;

use common::{encode, TestServer};

#[tokio::test]
async fn ping_echo_inline_and_multibulk() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"PING\r\n", b"+PONG\r\n").await;
    c.expect(b"ping\n", b"+PONG\r\n").await;
    c.expect(b"*1\r\n$4\r\nPING\r\n", b"+PONG\r\n").await;
    c.expect(b"*2\r\n$4\r\nPING\r\n$5\r\nhello\r\n", b"$5\r\nhello\r\n").await;
    c.expect(b"ECHO \"a b\\x41\"\r\n", b"$4\r\na bA\r\n").await;
    // Empty lines and empty multibulks are skipped, as Redis does.
    c.expect(b"\r\n*0\r\nPING\r\n", b"+PONG\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn strings_and_signed_integers() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nvalue\r\n", b"+OK\r\n").await;
    c.expect(b"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n", b"$5\r\nvalue\r\n").await;
    c.expect(b"GET missing\r\n", b"$-1\r\n").await;
    c.expect(b"INCRBY n -5\r\n", b":-5\r\n").await;
    c.expect(b"DECRBY n 9223372036854775807\r\n", b"-ERR increment or decrement would overflow\r\n").await;
    c.expect(b"INCR k\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"INCRBY n abc\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"INCRBYFLOAT f 10.5\r\n", b"$4\r\n10.5\r\n").await;
    c.expect(b"INCRBYFLOAT f 1.5\r\n", b"$2\r\n12\r\n").await;
    c.expect(b"APPEND k 12\r\n", b":7\r\n").await;
    c.expect(b"STRLEN k\r\n", b":7\r\n").await;
    c.expect(b"GETRANGE k 0 -3\r\n", b"$5\r\nvalue\r\n").await;
    c.expect(b"SETRANGE r 2 ab\r\n", b":4\r\n").await;
    c.expect(b"GETRANGE k -100 -50\r\n", b"$1\r\nv\r\n").await;
    c.expect(b"INCRBYFLOAT g 0.1\r\n", b"$3\r\n0.1\r\n").await;
    c.expect(b"INCRBYFLOAT g 0.2\r\n", b"$3\r\n0.3\r\n").await;
    c.expect(b"GET r\r\n", b"$4\r\n\x00\x00ab\r\n").await;
    c.expect(b"SET k v NX\r\n", b"$-1\r\n").await;
    c.expect(b"SET k v2 XX GET\r\n", b"$7\r\nvalue12\r\n").await;
    c.expect(b"SET k v NX XX\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"SET k v EX 0\r\n", b"-ERR invalid expire time in 'set' command\r\n").await;
    c.expect(b"SET k v EX ten\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"SETNX k x\r\n", b":0\r\n").await;
    c.expect(b"GETSET k v3\r\n", b"$2\r\nv2\r\n").await;
    c.expect(b"GETDEL k\r\n", b"$2\r\nv3\r\n").await;
    c.expect(b"GETDEL k\r\n", b"$-1\r\n").await;
    c.expect(b"MSET a 1 b 2\r\n", b"+OK\r\n").await;
    c.expect(b"MGET a nosuch b\r\n", b"*3\r\n$1\r\n1\r\n$-1\r\n$1\r\n2\r\n").await;
    c.expect(b"MSETNX a 1 c 3\r\n", b":0\r\n").await;
    c.expect(b"MSET a 1 b\r\n", b"-ERR wrong number of arguments for 'mset' command\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn errors_are_worded_as_redis() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"FOO bar baz\r\n", b"-ERR unknown command 'FOO', with args beginning with: 'bar' 'baz' \r\n").await;
    c.expect(b"NOPE\r\n", b"-ERR unknown command 'NOPE', with args beginning with: \r\n").await;
    c.expect(b"GET\r\n", b"-ERR wrong number of arguments for 'get' command\r\n").await;
    c.expect(b"CLIENT\r\n", b"-ERR wrong number of arguments for 'client' command\r\n").await;
    c.expect(b"CLIENT SETNAME\r\n", b"-ERR wrong number of arguments for 'client|setname' command\r\n").await;
    c.expect(b"CLIENT BOGUS\r\n", b"-ERR unknown subcommand 'BOGUS'. Try CLIENT HELP.\r\n").await;
    c.expect(b"LPUSH l a\r\n", b":1\r\n").await;
    c.expect(b"GET l\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"SELECT 16\r\n", b"-ERR DB index is out of range\r\n").await;
    c.expect(b"SELECT 0\r\n", b"+OK\r\n").await;
    c.expect(b"RENAME nosuch x\r\n", b"-ERR no such key\r\n").await;
    c.expect(b"HELLO 4\r\n", b"-NOPROTO unsupported protocol version\r\n").await;
    c.expect(
        b"AUTH secret\r\n",
        b"-ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?\r\n",
    )
    .await;
    c.expect(b"AUTH default anything\r\n", b"+OK\r\n").await;
    c.expect(b"ZADD z nan a\r\n", b"-ERR value is not a valid float\r\n").await;
    c.expect(b"ZADD z NX XX 1 a\r\n", b"-ERR XX and NX options at the same time are not compatible\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn protocol_errors_reply_then_close() {
    let server = TestServer::start().await;
    for (request, reply) in [
        (&b"*1\r\n+PING\r\n"[..], &b"-ERR Protocol error: expected '$', got '+'\r\n"[..]),
        (b"*x\r\n", b"-ERR Protocol error: invalid multibulk length\r\n"),
        (b"*1\r\n$-5\r\n", b"-ERR Protocol error: invalid bulk length\r\n"),
        (b"*1\r\n$536870913\r\n", b"-ERR Protocol error: invalid bulk length\r\n"),
        (b"*3000000000\r\n", b"-ERR Protocol error: invalid multibulk length\r\n"),
        (b"SET \"a b\r\n", b"-ERR Protocol error: unbalanced quotes in request\r\n"),
    ] {
        let mut c = server.client().await;
        // Commands before the bad frame still run and are answered first.
        let mut bytes = b"PING\r\n".to_vec();
        bytes.extend_from_slice(request);
        let mut expected = b"+PONG\r\n".to_vec();
        expected.extend_from_slice(reply);
        c.expect(&bytes, &expected).await;
        assert!(c.is_closed().await, "connection stays open after {:?}", String::from_utf8_lossy(request));
    }
    // An inline request longer than 64 KB without a newline.
    let mut c = server.client().await;
    c.expect(&vec![b'a'; 70 * 1024], b"-ERR Protocol error: too big inline request\r\n").await;
    assert!(c.is_closed().await);
    // The server is still there.
    let mut c = server.client().await;
    c.expect(b"PING\r\n", b"+PONG\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn a_pipeline_is_answered_in_order_in_one_go() {
    let server = TestServer::start_with(|c| c.fsync = basalt_storage::Fsync::Always).await;
    let mut c = server.client().await;
    let mut request = Vec::new();
    let mut expected = Vec::new();
    for i in 0..1000 {
        let key = format!("key:{i}");
        let value = format!("value-{i}");
        request.extend_from_slice(&encode(&[b"SET", key.as_bytes(), value.as_bytes()]));
        expected.extend_from_slice(b"+OK\r\n");
        request.extend_from_slice(&encode(&[b"GET", key.as_bytes()]));
        expected.extend_from_slice(format!("${}\r\n{value}\r\n", value.len()).as_bytes());
    }
    c.expect(&request, &expected).await;
    c.expect(b"DBSIZE\r\n", b":1000\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn a_large_bulk_string_arrives_in_pieces() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let value = vec![b'x'; 8 << 20];
    let frame = encode(&[b"SET", b"big", &value]);
    for piece in frame.chunks(1 << 20) {
        c.send(piece).await;
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    assert_eq!(c.read_n(5).await, b"+OK\r\n");
    c.send(b"GET big\r\n").await;
    let got = c.read_n(value.len() + 12).await;
    assert_eq!(&got[..11], b"$8388608\r\nx");
    assert_eq!(got.len(), value.len() + 12);
    c.expect(b"STRLEN big\r\n", b":8388608\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn resp3_types_after_hello_3() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.send(b"HELLO 3\r\n").await;
    let hello = c.read_reply().await;
    let id = String::from_utf8_lossy(&hello).split("$2\r\nid\r\n:").nth(1).unwrap().split("\r\n").next().unwrap().to_string();
    let expected = format!(
        "%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$5\r\n7.0.0\r\n$5\r\nproto\r\n:3\r\n$2\r\nid\r\n:{id}\r\n\
         $4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n"
    );
    assert_eq!(String::from_utf8_lossy(&hello), expected);
    c.expect(b"GET nothing\r\n", b"_\r\n").await;
    c.expect(b"HSET h f v\r\n", b":1\r\n").await;
    c.expect(b"HGETALL h\r\n", b"%1\r\n$1\r\nf\r\n$1\r\nv\r\n").await;
    c.expect(b"ZADD z 1.5 a\r\n", b":1\r\n").await;
    c.expect(b"ZSCORE z a\r\n", b",1.5\r\n").await;
    c.expect(b"ZRANGE z 0 -1 WITHSCORES\r\n", b"*1\r\n*2\r\n$1\r\na\r\n,1.5\r\n").await;
    c.expect(b"SADD s m\r\n", b":1\r\n").await;
    c.expect(b"SMEMBERS s\r\n", b"~1\r\n$1\r\nm\r\n").await;
    c.expect(b"LPOP nolist 2\r\n", b"_\r\n").await;
    // Back to RESP2.
    c.send(b"HELLO 2\r\n").await;
    c.read_reply().await;
    c.expect(b"ZSCORE z a\r\n", b"$3\r\n1.5\r\n").await;
    c.expect(b"HGETALL h\r\n", b"*2\r\n$1\r\nf\r\n$1\r\nv\r\n").await;
    c.expect(b"LPOP nolist 2\r\n", b"*-1\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn keys_expiry_and_scan() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"SET k v EX 100\r\n", b"+OK\r\n").await;
    c.expect(b"TTL k\r\n", b":100\r\n").await;
    c.expect(b"PERSIST k\r\n", b":1\r\n").await;
    c.expect(b"TTL k\r\n", b":-1\r\n").await;
    c.expect(b"TTL none\r\n", b":-2\r\n").await;
    c.expect(b"EXPIRE k 100 XX\r\n", b":0\r\n").await;
    c.expect(b"EXPIRE k 100 NX\r\n", b":1\r\n").await;
    c.expect(b"EXPIRE k 50 GT\r\n", b":0\r\n").await;
    c.expect(b"EXPIRE k 100 NX GT\r\n", b"-ERR NX and XX, GT or LT options at the same time are not compatible\r\n").await;
    c.expect(b"SET k2 v KEEPTTL\r\n", b"+OK\r\n").await;
    c.expect(b"PEXPIRE k2 1\r\n", b":1\r\n").await;
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    c.expect(b"GET k2\r\n", b"$-1\r\n").await;
    c.expect(b"EXPIRE k -1\r\n", b":1\r\n").await;
    c.expect(b"EXISTS k k2\r\n", b":0\r\n").await;
    c.expect(b"SET a 1\r\n", b"+OK\r\n").await;
    c.expect(b"RENAME a b\r\n", b"+OK\r\n").await;
    c.expect(b"TYPE b\r\n", b"+string\r\n").await;
    c.expect(b"TYPE a\r\n", b"+none\r\n").await;
    c.expect(b"DEL b nosuch\r\n", b":1\r\n").await;
    for i in 0..50 {
        c.call(&[b"SET", format!("user:{i}").as_bytes(), b"x"]).await;
        c.call(&[b"HSET", format!("hash:{i}").as_bytes(), b"f", b"v"]).await;
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut cursor = "0".to_string();
    loop {
        let reply = c.call(&[b"SCAN", cursor.as_bytes(), b"MATCH", b"user:*", b"COUNT", b"7", b"TYPE", b"string"]).await;
        let text = String::from_utf8(reply).unwrap();
        let parts: Vec<&str> = text.split("\r\n").collect();
        cursor = parts[2].to_string();
        for key in parts.iter().skip(5).step_by(2) {
            if !key.is_empty() {
                assert!(key.starts_with("user:"), "{key}");
                seen.insert(key.to_string());
            }
        }
        if cursor == "0" {
            break;
        }
    }
    assert_eq!(seen.len(), 50);
    c.expect(b"SCAN abc\r\n", b"-ERR invalid cursor\r\n").await;
    let keys = String::from_utf8(c.call(&[b"KEYS", b"user:1?"]).await).unwrap();
    assert!(keys.starts_with("*10\r\n$7\r\nuser:1"), "{keys}");
    c.expect(b"FLUSHALL\r\n", b"+OK\r\n").await;
    c.expect(b"DBSIZE\r\n", b":0\r\n").await;
    c.expect(b"RANDOMKEY\r\n", b"$-1\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn hashes_lists_sets_sorted_sets() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"HSET h a 1 b 2\r\n", b":2\r\n").await;
    c.expect(b"HSETNX h a 9\r\n", b":0\r\n").await;
    c.expect(b"HGET h a\r\n", b"$1\r\n1\r\n").await;
    c.expect(b"HMGET h a x\r\n", b"*2\r\n$1\r\n1\r\n$-1\r\n").await;
    c.expect(b"HINCRBY h a 10\r\n", b":11\r\n").await;
    c.expect(b"HLEN h\r\n", b":2\r\n").await;
    c.expect(b"HEXISTS h b\r\n", b":1\r\n").await;
    c.expect(b"HDEL h a b x\r\n", b":2\r\n").await;
    c.expect(b"EXISTS h\r\n", b":0\r\n").await;
    c.expect(b"HMSET h f v\r\n", b"+OK\r\n").await;
    c.expect(b"HSCAN h 0\r\n", b"*2\r\n$1\r\n0\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n").await;
    c.expect(b"RPUSH l a b c\r\n", b":3\r\n").await;
    c.expect(b"LPUSH l z\r\n", b":4\r\n").await;
    c.expect(b"LRANGE l 1 -2\r\n", b"*2\r\n$1\r\na\r\n$1\r\nb\r\n").await;
    c.expect(b"LPOP l\r\n", b"$1\r\nz\r\n").await;
    c.expect(b"RPOP l 2\r\n", b"*2\r\n$1\r\nc\r\n$1\r\nb\r\n").await;
    c.expect(b"LLEN l\r\n", b":1\r\n").await;
    c.expect(b"SADD s a b a\r\n", b":2\r\n").await;
    c.expect(b"SISMEMBER s a\r\n", b":1\r\n").await;
    c.expect(b"SREM s a x\r\n", b":1\r\n").await;
    c.expect(b"SCARD s\r\n", b":1\r\n").await;
    c.expect(b"ZADD dup NX 1 a 2 a\r\n", b":1\r\n").await;
    c.expect(b"ZSCORE dup a\r\n", b"$1\r\n1\r\n").await;
    c.expect(b"ZADD lex 0 a 0 b 0 c 0 d\r\n", b":4\r\n").await;
    c.expect(b"ZRANGE lex [b (d BYLEX\r\n", b"*2\r\n$1\r\nb\r\n$1\r\nc\r\n").await;
    c.expect(b"ZRANGE lex + (b BYLEX REV LIMIT 0 1\r\n", b"*1\r\n$1\r\nd\r\n").await;
    c.expect(b"ZADD z 1 a 2 b 3 c\r\n", b":3\r\n").await;
    c.expect(b"ZADD z CH 5 a 2 b\r\n", b":1\r\n").await;
    c.expect(b"ZADD z INCR 1 b\r\n", b"$1\r\n3\r\n").await;
    c.expect(b"ZRANGE z 0 -1\r\n", b"*3\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\na\r\n").await;
    c.expect(b"ZRANGE z 0 0 REV WITHSCORES\r\n", b"*2\r\n$1\r\na\r\n$1\r\n5\r\n").await;
    c.expect(b"ZRANGEBYSCORE z (3 +inf\r\n", b"*1\r\n$1\r\na\r\n").await;
    c.expect(b"ZRANGE z +inf -inf BYSCORE REV LIMIT 0 2\r\n", b"*2\r\n$1\r\na\r\n$1\r\nc\r\n").await;
    c.expect(b"ZRANGEBYSCORE z x 1\r\n", b"-ERR min or max is not a float\r\n").await;
    c.expect(b"ZREM z a b\r\n", b":2\r\n").await;
    c.expect(b"ZCARD z\r\n", b":1\r\n").await;
    c.expect(b"ZSCORE z nope\r\n", b"$-1\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn connection_and_server_commands() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"CLIENT GETNAME\r\n", b"$-1\r\n").await;
    c.expect(b"CLIENT SETNAME worker-1\r\n", b"+OK\r\n").await;
    c.expect(b"CLIENT SETNAME \"a b\"\r\n", b"-ERR Client names cannot contain spaces, newlines or special characters.\r\n").await;
    c.expect(b"CLIENT GETNAME\r\n", b"$8\r\nworker-1\r\n").await;
    let id = String::from_utf8(c.call(&[b"CLIENT", b"ID"]).await).unwrap();
    let list = String::from_utf8(c.call(&[b"CLIENT", b"LIST"]).await).unwrap();
    assert!(list.contains(&format!("id={} ", id.trim_start_matches(':').trim_end())), "{list}");
    assert!(list.contains(" name=worker-1 "), "{list}");
    let info = String::from_utf8(c.call(&[b"CLIENT", b"INFO"]).await).unwrap();
    assert!(info.contains("cmd=client|info"), "{info}");
    c.expect(b"CONFIG GET maxmemory\r\n", b"*2\r\n$9\r\nmaxmemory\r\n$1\r\n0\r\n").await;
    c.expect(b"CONFIG SET maxmemory 1mb\r\n", b"+OK\r\n").await;
    c.expect(b"CONFIG GET maxmemory\r\n", b"*2\r\n$9\r\nmaxmemory\r\n$7\r\n1048576\r\n").await;
    c.expect(b"CONFIG SET appendfsync always\r\n", b"+OK\r\n").await;
    c.expect(b"CONFIG GET appendfsync\r\n", b"*2\r\n$11\r\nappendfsync\r\n$6\r\nalways\r\n").await;
    c.expect(
        b"CONFIG SET appendfsync sometimes\r\n",
        b"-ERR CONFIG SET failed (possibly related to argument 'appendfsync') - argument(s) must be one of the following: always, everysec, no\r\n",
    )
    .await;
    c.expect(b"CONFIG SET port 1\r\n", b"-ERR CONFIG SET failed (possibly related to argument 'port') - can't set immutable config\r\n").await;
    c.expect(b"CONFIG SET nosuch 1\r\n", b"-ERR Unknown option or number of arguments for CONFIG SET - 'nosuch'\r\n").await;
    c.expect(b"COMMAND COUNT\r\n", format!(":{}\r\n", basalt_server::table::COMMANDS.len()).as_bytes()).await;
    c.expect(
        b"COMMAND INFO get nosuch\r\n",
        b"*2\r\n*10\r\n$3\r\nget\r\n:2\r\n*2\r\n+readonly\r\n+fast\r\n:1\r\n:1\r\n:1\r\n*3\r\n+@read\r\n+@string\r\n+@fast\r\n*0\r\n\
*1\r\n*6\r\n$5\r\nflags\r\n*1\r\n+RO\r\n$12\r\nbegin_search\r\n*4\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n*2\r\n$5\r\nindex\r\n:1\r\n\
$9\r\nfind_keys\r\n*4\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n*6\r\n$7\r\nlastkey\r\n:0\r\n$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:0\r\n\
*0\r\n$-1\r\n",
    )
    .await;
    c.expect(
        b"COMMAND DOCS echo\r\n",
        b"*2\r\n$4\r\necho\r\n*6\r\n$7\r\nsummary\r\n$25\r\nReturns the given string.\r\n$5\r\nsince\r\n$5\r\n1.0.0\r\n$5\r\ngroup\r\n$10\r\nconnection\r\n",
    )
    .await;
    let time = String::from_utf8(c.call(&[b"TIME"]).await).unwrap();
    assert!(time.starts_with("*2\r\n$10\r\n"), "{time}");
    c.expect(b"RESET\r\n", b"+RESET\r\n").await;
    c.expect(b"CLIENT GETNAME\r\n", b"$-1\r\n").await;
    c.expect(b"QUIT\r\n", b"+OK\r\n").await;
    assert!(c.is_closed().await);
    server.stop().await;
}

#[tokio::test]
async fn commandstats_count_exactly() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let mut pipeline = Vec::new();
    for i in 0..137 {
        pipeline.extend_from_slice(&encode(&[b"SET", format!("k{i}").as_bytes(), b"v"]));
    }
    for i in 0..59 {
        pipeline.extend_from_slice(&encode(&[b"GET", format!("k{i}").as_bytes()]));
    }
    pipeline.extend_from_slice(b"GET\r\nLPUSH k1 x\r\n");
    c.send(&pipeline).await;
    let mut expected = b"+OK\r\n".repeat(137).len();
    expected += (0..59).map(|_| 7).sum::<usize>();
    expected += b"-ERR wrong number of arguments for 'get' command\r\n".len();
    expected += b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n".len();
    c.read_n(expected).await;
    let info = String::from_utf8(c.call(&[b"INFO", b"commandstats"]).await).unwrap();
    assert!(info.contains("cmdstat_set:calls=137,"), "{info}");
    assert!(info.contains("cmdstat_get:calls=59,"), "{info}");
    assert!(info.contains(",rejected_calls=1,failed_calls=0\r\n"), "{info}");
    assert!(info.contains("cmdstat_lpush:calls=1,") && info.contains(",rejected_calls=0,failed_calls=1\r\n"), "{info}");
    let all = String::from_utf8(c.call(&[b"INFO"]).await).unwrap();
    for section in ["# Server", "# Clients", "# Memory", "# Persistence", "# Stats", "# Keyspace", "db0:keys=137,"] {
        assert!(all.contains(section), "{section} missing in {all}");
    }
    assert!(!all.contains("# Commandstats"));
    server.stop().await;
}

#[tokio::test]
async fn shutdown_closes_and_stops_the_server() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"SET k v\r\n", b"+OK\r\n").await;
    c.send(b"SHUTDOWN\r\n").await;
    assert!(c.is_closed().await);
    let finished = tokio::time::timeout(std::time::Duration::from_secs(10), server.running.task).await;
    assert!(matches!(finished, Ok(Ok(Ok(())))), "server did not stop cleanly");
}
