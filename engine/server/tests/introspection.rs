//! OBJECT, DEBUG (SLEEP, OBJECT, SET-ACTIVE-EXPIRE), EXPIRETIME/PEXPIRETIME and CLIENT
//! KILL/NO-EVICT at the wire, with exact bytes.

mod common;

use common::TestServer;
use std::time::Duration;

#[tokio::test]
async fn object_and_debug() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"SET n 12345\r\nOBJECT ENCODING n\r\n", b"+OK\r\n$3\r\nint\r\n").await;
    c.expect(b"SET s hello\r\nOBJECT ENCODING s\r\n", b"+OK\r\n$6\r\nembstr\r\n").await;
    let long = "x".repeat(45);
    c.expect(format!("SET s {long}\r\nOBJECT ENCODING s\r\n").as_bytes(), b"+OK\r\n$3\r\nraw\r\n").await;
    c.expect(b"SADD st 1 2\r\nOBJECT ENCODING st\r\n", b":2\r\n$6\r\nintset\r\n").await;
    c.expect(b"SADD st a\r\nOBJECT ENCODING st\r\n", b":1\r\n$9\r\nhashtable\r\n").await;
    c.expect(b"HSET h f v\r\nOBJECT ENCODING h\r\n", b":1\r\n$8\r\nlistpack\r\n").await;
    c.expect(b"ZADD z 1 m\r\nOBJECT ENCODING z\r\n", b":1\r\n$8\r\nlistpack\r\n").await;
    c.expect(b"RPUSH l a\r\nOBJECT ENCODING l\r\n", b":1\r\n$9\r\nquicklist\r\n").await;
    c.expect(b"OBJECT ENCODING missing\r\n", b"$-1\r\n").await;
    c.expect(b"OBJECT REFCOUNT h\r\n", b":1\r\n").await;
    c.expect(b"OBJECT IDLETIME h\r\n", b":0\r\n").await;
    c.expect(b"OBJECT FREQ h\r\n", b"-ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.\r\n").await;
    c.expect(b"OBJECT NOPE h\r\n", b"-ERR unknown subcommand 'NOPE'. Try OBJECT HELP.\r\n").await;
    c.send(b"DEBUG OBJECT h\r\n").await;
    let line = String::from_utf8(c.next_reply().await).unwrap();
    assert!(line.starts_with("+Value at:0x0 refcount:1 encoding:listpack serializedlength:"), "{line}");
    c.expect(b"DEBUG OBJECT missing\r\n", b"-ERR no such key\r\n").await;
    c.expect(b"DEBUG SLEEP 0\r\n", b"+OK\r\n").await;
    // With the background sweep off, an expired key stays counted until touched.
    c.expect(b"DEBUG SET-ACTIVE-EXPIRE 0\r\nSET gone x PX 10\r\n", b"+OK\r\n+OK\r\n").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    c.expect(b"DBSIZE\r\n", b":7\r\n").await;
    c.expect(b"GET gone\r\nDBSIZE\r\n", b"$-1\r\n:6\r\n").await;
    c.expect(b"DEBUG SET-ACTIVE-EXPIRE 1\r\n", b"+OK\r\n").await;
    c.expect(b"SET e x PXAT 4102444800123\r\nPEXPIRETIME e\r\nEXPIRETIME e\r\n", b"+OK\r\n:4102444800123\r\n:4102444800\r\n").await;
    c.expect(b"EXPIRETIME h\r\nEXPIRETIME missing\r\n", b":-1\r\n:-2\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn client_kill_and_no_evict() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let mut victim = server.client().await;
    victim.expect(b"CLIENT NO-EVICT on\r\n", b"+OK\r\n").await;
    victim.send(b"CLIENT ID\r\n").await;
    let id = String::from_utf8(victim.next_reply().await).unwrap().trim_start_matches(':').trim().to_string();
    c.send(format!("CLIENT LIST ID {id}\r\n").as_bytes()).await;
    let list = String::from_utf8(c.next_reply().await).unwrap();
    assert!(list.contains(" flags=e "), "{list}");
    c.expect(b"CLIENT NO-EVICT maybe\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"CLIENT KILL 1.2.3.4:5\r\n", b"-ERR No such client\r\n").await;
    c.expect(b"CLIENT KILL ID 0\r\n", b"-ERR client-id should be greater than 0\r\n").await;
    c.expect(format!("CLIENT KILL ID {id}\r\n").as_bytes(), b":1\r\n").await;
    assert!(victim.is_closed().await, "the killed client is closed");
    // SKIPME yes (the default) spares the caller; SKIPME no includes it.
    c.expect(b"CLIENT KILL USER default\r\n", b":0\r\n").await;
    c.expect(b"CLIENT KILL USER default SKIPME no\r\n", b":1\r\n").await;
    assert!(c.is_closed().await);
    server.stop().await;
}
