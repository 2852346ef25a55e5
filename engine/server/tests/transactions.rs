//! MULTI / EXEC / DISCARD / WATCH / UNWATCH at the wire, with Redis' exact replies: queued
//! commands, errors while queueing (EXECABORT), errors while running, WATCH invalidated by
//! another connection, by expiry and by FLUSHDB, and transactions that change databases.

mod common;

use common::TestServer;
use std::time::Duration;

#[tokio::test]
async fn queue_and_exec() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"EXEC\r\n", b"-ERR EXEC without MULTI\r\n").await;
    c.expect(b"DISCARD\r\n", b"-ERR DISCARD without MULTI\r\n").await;
    c.expect(b"MULTI\r\n", b"+OK\r\n").await;
    c.expect(b"MULTI\r\n", b"-ERR MULTI calls can not be nested\r\n").await;
    c.expect(b"SET a 1\r\n", b"+QUEUED\r\n").await;
    c.expect(b"INCR a\r\n", b"+QUEUED\r\n").await;
    c.expect(b"SELECT 1\r\n", b"+QUEUED\r\n").await;
    c.expect(b"SET a x\r\n", b"+QUEUED\r\n").await;
    c.expect(b"INCR a\r\n", b"+QUEUED\r\n").await;
    c.expect(
        b"EXEC\r\n",
        b"*5\r\n+OK\r\n:2\r\n+OK\r\n+OK\r\n-ERR value is not an integer or out of range\r\n",
    )
    .await;
    // SELECT inside the transaction stays in effect.
    c.expect(b"GET a\r\n", b"$1\r\nx\r\n").await;
    c.expect(b"MULTI\r\n", b"+OK\r\n").await;
    c.expect(b"SET b 1\r\n", b"+QUEUED\r\n").await;
    c.expect(b"DISCARD\r\n", b"+OK\r\n").await;
    c.expect(b"EXISTS b\r\n", b":0\r\n").await;
    // An empty transaction, and a pipelined one.
    c.expect(b"MULTI\r\nEXEC\r\n", b"+OK\r\n*0\r\n").await;
    c.expect(b"MULTI\r\nLPUSH l a b\r\nLRANGE l 0 -1\r\nEXEC\r\n", b"+OK\r\n+QUEUED\r\n+QUEUED\r\n*2\r\n:2\r\n*2\r\n$1\r\nb\r\n$1\r\na\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn errors_while_queueing_abort() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"MULTI\r\n", b"+OK\r\n").await;
    c.expect(b"SET a 1\r\n", b"+QUEUED\r\n").await;
    c.expect(b"NOSUCH x\r\n", b"-ERR unknown command 'NOSUCH', with args beginning with: 'x' \r\n").await;
    c.expect(b"GET\r\n", b"-ERR wrong number of arguments for 'get' command\r\n").await;
    c.expect(b"WATCH a\r\n", b"-ERR WATCH inside MULTI is not allowed\r\n").await;
    c.expect(b"EXEC\r\n", b"-EXECABORT Transaction discarded because of previous errors.\r\n").await;
    c.expect(b"EXISTS a\r\n", b":0\r\n").await;
    // The MULTI state is gone after EXECABORT.
    c.expect(b"EXEC\r\n", b"-ERR EXEC without MULTI\r\n").await;
    server.stop().await;
}

/// SHUTDOWN and PSYNC are Redis' `no-multi` commands: refused while queueing, with Redis'
/// text, so the transaction aborts and the server keeps running.
#[tokio::test]
async fn no_multi_commands_are_refused_inside_multi() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"MULTI\r\n", b"+OK\r\n").await;
    c.expect(b"SET a 1\r\n", b"+QUEUED\r\n").await;
    c.expect(b"SHUTDOWN NOSAVE\r\n", b"-ERR Command not allowed inside a transaction\r\n").await;
    c.expect(b"PSYNC ? -1\r\n", b"-ERR Command not allowed inside a transaction\r\n").await;
    c.expect(b"EXEC\r\n", b"-EXECABORT Transaction discarded because of previous errors.\r\n").await;
    c.expect(b"PING\r\n", b"+PONG\r\n").await;
    c.expect(b"EXISTS a\r\n", b":0\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn watch_is_invalidated_by_other_writers() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let mut other = server.client().await;
    c.expect(b"SET w 1\r\n", b"+OK\r\n").await;
    c.expect(b"WATCH w\r\n", b"+OK\r\n").await;
    other.expect(b"INCR w\r\n", b":2\r\n").await;
    c.expect(b"MULTI\r\n", b"+OK\r\n").await;
    c.expect(b"SET w 10\r\n", b"+QUEUED\r\n").await;
    c.expect(b"EXEC\r\n", b"*-1\r\n").await;
    c.expect(b"GET w\r\n", b"$1\r\n2\r\n").await;
    // Unchanged: EXEC runs. After EXEC the key is no longer watched.
    c.expect(b"WATCH w\r\n", b"+OK\r\n").await;
    c.expect(b"MULTI\r\nINCR w\r\nEXEC\r\n", b"+OK\r\n+QUEUED\r\n*1\r\n:3\r\n").await;
    other.expect(b"INCR w\r\n", b":4\r\n").await;
    c.expect(b"MULTI\r\nINCR w\r\nEXEC\r\n", b"+OK\r\n+QUEUED\r\n*1\r\n:5\r\n").await;
    // UNWATCH forgets; a write that changes nothing still counts (SET of the same value).
    c.expect(b"WATCH w\r\nUNWATCH\r\n", b"+OK\r\n+OK\r\n").await;
    other.expect(b"SET w 5\r\n", b"+OK\r\n").await;
    c.expect(b"MULTI\r\nGET w\r\nEXEC\r\n", b"+OK\r\n+QUEUED\r\n*1\r\n$1\r\n5\r\n").await;
    // WATCH remembers the database: a write of the same name elsewhere does not count.
    c.expect(b"WATCH w\r\n", b"+OK\r\n").await;
    other.expect(b"SELECT 1\r\nSET w other\r\n", b"+OK\r\n+OK\r\n").await;
    c.expect(b"MULTI\r\nGET w\r\nEXEC\r\n", b"+OK\r\n+QUEUED\r\n*1\r\n$1\r\n5\r\n").await;
    // FLUSHDB touches watched keys that exist; DISCARD unwatches.
    c.expect(b"WATCH w\r\n", b"+OK\r\n").await;
    other.expect(b"SELECT 0\r\nFLUSHDB\r\n", b"+OK\r\n+OK\r\n").await;
    c.expect(b"MULTI\r\nPING\r\nEXEC\r\n", b"+OK\r\n+QUEUED\r\n*-1\r\n").await;
    c.expect(b"WATCH w\r\nMULTI\r\nDISCARD\r\n", b"+OK\r\n+OK\r\n+OK\r\n").await;
    other.expect(b"SET w again\r\n", b"+OK\r\n").await;
    c.expect(b"MULTI\r\nPING\r\nEXEC\r\n", b"+OK\r\n+QUEUED\r\n*1\r\n+PONG\r\n").await;
    // RESP3: an aborted EXEC is a null.
    c.send(b"HELLO 3\r\n").await;
    c.read_reply().await;
    c.expect(b"WATCH w\r\n", b"+OK\r\n").await;
    other.expect(b"DEL w\r\n", b":1\r\n").await;
    c.expect(b"MULTI\r\nPING\r\nEXEC\r\n", b"+OK\r\n+QUEUED\r\n_\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn watch_and_expiry() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    // A key that expires after WATCH fails the transaction.
    c.expect(b"SET x 1 PX 100\r\nWATCH x\r\n", b"+OK\r\n+OK\r\n").await;
    tokio::time::sleep(Duration::from_millis(250)).await;
    c.expect(b"MULTI\r\nPING\r\nEXEC\r\n", b"+OK\r\n+QUEUED\r\n*-1\r\n").await;
    // A key already expired when watched does not.
    c.expect(b"SET y 1 PX 1\r\n", b"+OK\r\n").await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    c.expect(b"WATCH y\r\n", b"+OK\r\n").await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    c.expect(b"MULTI\r\nPING\r\nEXEC\r\n", b"+OK\r\n+QUEUED\r\n*1\r\n+PONG\r\n").await;
    // EXPIRE of a watched key is a change.
    c.expect(b"SET z 1\r\nWATCH z\r\nEXPIRE z 100\r\n", b"+OK\r\n+OK\r\n:1\r\n").await;
    c.expect(b"MULTI\r\nPING\r\nEXEC\r\n", b"+OK\r\n+QUEUED\r\n*-1\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn exec_counts_in_commandstats() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"MULTI\r\nSET a 1\r\nGET a\r\nEXEC\r\n", b"+OK\r\n+QUEUED\r\n+QUEUED\r\n*2\r\n+OK\r\n$1\r\n1\r\n").await;
    c.send(b"INFO commandstats\r\n").await;
    let info = String::from_utf8(c.next_reply().await).unwrap();
    for name in ["multi", "exec", "set", "get"] {
        assert!(info.contains(&format!("cmdstat_{name}:calls=1,")), "{name}: {info}");
    }
    server.stop().await;
}
