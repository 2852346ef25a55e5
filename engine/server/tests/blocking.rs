//! Blocking list commands at the wire: BLPOP/BRPOP/BLMOVE/BRPOPLPUSH woken by another
//! client's push, timeouts, commands pipelined behind a blocked one, BLPOP inside MULTI (does
//! not block), and LMOVE/RPOPLPUSH.

mod common;

use common::TestServer;
use std::time::{Duration, Instant};

#[tokio::test]
async fn blpop_wakes_on_push_and_times_out() {
    let server = TestServer::start().await;
    let mut waiter = server.client().await;
    let mut pusher = server.client().await;
    // Something there already: no waiting.
    pusher.expect(b"RPUSH q2 a b\r\n", b":2\r\n").await;
    waiter.expect(b"BLPOP q1 q2 0\r\n", b"*2\r\n$2\r\nq2\r\n$1\r\na\r\n").await;
    waiter.expect(b"BRPOP q2 0\r\n", b"*2\r\n$2\r\nq2\r\n$1\r\nb\r\n").await;
    // Blocked until another client pushes; a command pipelined behind it waits its turn.
    waiter.send(b"BLPOP q1 q2 5\r\nPING\r\n").await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    pusher.expect(b"LPUSH q1 job\r\n", b":1\r\n").await;
    waiter.expect(b"", b"*2\r\n$2\r\nq1\r\n$3\r\njob\r\n+PONG\r\n").await;
    pusher.expect(b"EXISTS q1\r\n", b":0\r\n").await;
    // Timeout: a null array after about that long.
    let started = Instant::now();
    waiter.expect(b"BLPOP q1 0.2\r\n", b"*-1\r\n").await;
    assert!(started.elapsed() >= Duration::from_millis(190), "{:?}", started.elapsed());
    waiter.expect(b"BLPOP q1 -1\r\n", b"-ERR timeout is negative\r\n").await;
    waiter.expect(b"BLPOP q1 x\r\n", b"-ERR timeout is not a float or out of range\r\n").await;
    pusher.expect(b"SET s x\r\n", b"+OK\r\n").await;
    waiter.expect(b"BLPOP s 1\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    // Inside MULTI nothing blocks.
    waiter.expect(b"MULTI\r\nBLPOP q1 0\r\nEXEC\r\n", b"+OK\r\n+QUEUED\r\n*1\r\n*-1\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn one_element_wakes_one_of_two_waiters() {
    let server = TestServer::start().await;
    let mut first = server.client().await;
    let mut second = server.client().await;
    let mut pusher = server.client().await;
    first.send(b"BLPOP jobs 2\r\n").await;
    second.send(b"BLPOP jobs 2\r\n").await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    pusher.expect(b"RPUSH jobs only\r\n", b":1\r\n").await;
    let (a, b) = tokio::join!(first.next_reply(), second.next_reply());
    let mut replies = [String::from_utf8(a).unwrap(), String::from_utf8(b).unwrap()];
    replies.sort();
    assert_eq!(replies, ["*-1\r\n".to_string(), "*2\r\n$4\r\njobs\r\n$4\r\nonly\r\n".to_string()]);
    // A client that goes away while blocked leaves the server serving.
    let mut gone = server.client().await;
    gone.send(b"BLPOP never 0\r\n").await;
    drop(gone);
    pusher.expect(b"PING\r\n", b"+PONG\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn lmove_and_blmove() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let mut pusher = server.client().await;
    c.expect(b"RPUSH src a b c\r\n", b":3\r\n").await;
    c.expect(b"LMOVE src dst RIGHT LEFT\r\n", b"$1\r\nc\r\n").await;
    c.expect(b"RPOPLPUSH src dst\r\n", b"$1\r\nb\r\n").await;
    c.expect(b"LMOVE src src LEFT RIGHT\r\n", b"$1\r\na\r\n").await;
    c.expect(b"LMOVE src dst UP LEFT\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"LRANGE dst 0 -1\r\n", b"*2\r\n$1\r\nb\r\n$1\r\nc\r\n").await;
    c.expect(b"LMOVE none dst LEFT LEFT\r\n", b"$-1\r\n").await;
    c.expect(b"BLMOVE none dst LEFT LEFT 0.1\r\n", b"$-1\r\n").await;
    c.send(b"BLMOVE work done RIGHT LEFT 5\r\n").await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    pusher.expect(b"LPUSH work w1\r\n", b":1\r\n").await;
    c.expect(b"", b"$2\r\nw1\r\n").await;
    c.send(b"BRPOPLPUSH work done 5\r\n").await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    pusher.expect(b"LPUSH work w2\r\n", b":1\r\n").await;
    c.expect(b"", b"$2\r\nw2\r\n").await;
    c.expect(b"LRANGE done 0 -1\r\n", b"*2\r\n$2\r\nw2\r\n$2\r\nw1\r\n").await;
    server.stop().await;
}
