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
    // The one that blocked first gets it; the other times out.
    let (a, b) = tokio::join!(first.next_reply(), second.next_reply());
    assert_eq!(String::from_utf8(a).unwrap(), "*2\r\n$4\r\njobs\r\n$4\r\nonly\r\n");
    assert_eq!(String::from_utf8(b).unwrap(), "*-1\r\n");
    // A client that goes away while blocked leaves the server serving.
    let mut gone = server.client().await;
    gone.send(b"BLPOP never 0\r\n").await;
    drop(gone);
    pusher.expect(b"PING\r\n", b"+PONG\r\n").await;
    server.stop().await;
}

/// Redis serves the clients blocked on a key in the order they blocked; queues built on BLPOP
/// (and the Redis suite's "with multiple blocked clients" tests) count on it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn waiters_are_served_in_the_order_they_blocked() {
    let server = TestServer::start().await;
    let mut pusher = server.client().await;
    let mut waiters = Vec::new();
    for _ in 0..4 {
        waiters.push(server.client().await);
    }
    for round in 0..20 {
        for waiter in waiters.iter_mut() {
            waiter.send(b"BLPOP fifo 0\r\n").await;
            // Blocked before the next one asks.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        // Three elements for four waiters: the first three in order, the last one waits on.
        pusher.expect(b"RPUSH fifo a b c\r\n", b":3\r\n").await;
        for (waiter, element) in waiters.iter_mut().zip(["a", "b", "c"]) {
            let reply = String::from_utf8(waiter.next_reply().await).unwrap();
            assert_eq!(reply, format!("*2\r\n$4\r\nfifo\r\n$1\r\n{element}\r\n"), "round {round}");
        }
        pusher.expect(b"RPUSH fifo d\r\n", b":1\r\n").await;
        let reply = String::from_utf8(waiters[3].next_reply().await).unwrap();
        assert_eq!(reply, "*2\r\n$4\r\nfifo\r\n$1\r\nd\r\n", "round {round}");
        // Next round, the last one blocks first.
        waiters.rotate_right(1);
    }
    server.stop().await;
}

/// As in Redis, a push answers only after the client blocked on the list was served: a command
/// sent after the LPUSH's reply sees the pop (and a WATCH on a BRPOPLPUSH destination sees
/// its push), whichever thread the blocked client runs on.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_push_answers_after_the_blocked_client_was_served() {
    let server = TestServer::start().await;
    let mut waiter = server.client().await;
    let mut pusher = server.client().await;
    let mut watcher = server.client().await;
    for round in 0..50 {
        waiter.send(b"BLPOP served 0\r\n").await;
        tokio::time::sleep(Duration::from_millis(5)).await;
        pusher.expect(b"LPUSH served x\r\n", b":1\r\n").await;
        pusher.expect(b"LLEN served\r\n", b":0\r\n").await;
        let reply = String::from_utf8(waiter.next_reply().await).unwrap();
        assert_eq!(reply, "*2\r\n$6\r\nserved\r\n$1\r\nx\r\n", "round {round}");
    }
    for round in 0..20 {
        waiter.send(b"BRPOPLPUSH src dst 0\r\n").await;
        tokio::time::sleep(Duration::from_millis(5)).await;
        watcher.expect(b"WATCH dst\r\nMULTI\r\nPING\r\n", b"+OK\r\n+OK\r\n+QUEUED\r\n").await;
        pusher.expect(b"LPUSH src element\r\n", b":1\r\n").await;
        // The push to dst happened before LPUSH answered: the transaction is aborted.
        watcher.expect(b"EXEC\r\n", b"*-1\r\n").await;
        let reply = String::from_utf8(waiter.next_reply().await).unwrap();
        assert_eq!(reply, "$7\r\nelement\r\n", "round {round}");
        pusher.expect(b"DEL dst\r\n", b":1\r\n").await;
    }
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

/// CLIENT UNBLOCK: as the timeout (default and TIMEOUT) or with an UNBLOCKED error; 0 for a
/// client that is not blocked; the client blocks and is served normally afterwards. Bytes as
/// redis-server 7.0.15 answered.
#[tokio::test]
async fn client_unblock_ends_a_blocking_command() {
    let server = TestServer::start().await;
    let mut waiter = server.client().await;
    let mut admin = server.client().await;
    let id = String::from_utf8(waiter.call(&[b"CLIENT", b"ID"]).await).unwrap();
    let id = id.trim_start_matches(':').trim().to_string();
    let unblock = |how: &str| format!("CLIENT UNBLOCK {id} {how}\r\n").into_bytes();
    async fn blocked(admin: &mut common::Client) {
        for _ in 0..100 {
            if String::from_utf8_lossy(&admin.call(&[b"INFO", b"clients"]).await).contains("blocked_clients:1") {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the client did not block");
    }
    admin.expect(&unblock(""), b":0\r\n").await;
    waiter.send(b"BLPOP l 0\r\n").await;
    blocked(&mut admin).await;
    assert!(String::from_utf8_lossy(&admin.call(&[b"CLIENT", b"LIST"]).await).contains(" flags=b "));
    admin.expect(&unblock(""), b":1\r\n").await;
    waiter.expect(b"", b"*-1\r\n").await;
    waiter.send(b"BLMPOP 0 1 l RIGHT\r\n").await;
    blocked(&mut admin).await;
    admin.expect(&unblock("TIMEOUT"), b":1\r\n").await;
    waiter.expect(b"", b"*-1\r\n").await;
    waiter.send(b"BLPOP l 0\r\n").await;
    blocked(&mut admin).await;
    admin.expect(&unblock("ERROR"), b":1\r\n").await;
    waiter.expect(b"", b"-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n").await;
    admin.expect(&unblock(""), b":0\r\n").await;
    admin.expect(b"CLIENT UNBLOCK asd\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    admin.expect(&unblock("foo"), b"-ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR\r\n").await;
    admin.expect(&unblock("TIMEOUT extra"), b"-ERR unknown subcommand or wrong number of arguments for 'unblock'. Try CLIENT HELP.\r\n").await;
    // Still a working client: blocks again and is served by a push.
    waiter.send(b"BLPOP l 0\r\n").await;
    blocked(&mut admin).await;
    admin.expect(b"LPUSH l foo\r\n", b":1\r\n").await;
    waiter.expect(b"", b"*2\r\n$1\r\nl\r\n$3\r\nfoo\r\n").await;
    server.stop().await;
}
