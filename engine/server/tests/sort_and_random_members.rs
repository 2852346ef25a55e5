//! SORT (numeric, ALPHA, DESC, LIMIT, BY nosort, STORE), SPOP and SRANDMEMBER at the wire.

mod common;

use common::TestServer;

#[tokio::test]
async fn sort() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"RPUSH l 3 10 1 2.5\r\n", b":4\r\n").await;
    c.expect(b"SORT l\r\n", b"*4\r\n$1\r\n1\r\n$3\r\n2.5\r\n$1\r\n3\r\n$2\r\n10\r\n").await;
    c.expect(b"SORT l DESC LIMIT 0 2\r\n", b"*2\r\n$2\r\n10\r\n$1\r\n3\r\n").await;
    c.expect(b"SORT l ALPHA\r\n", b"*4\r\n$1\r\n1\r\n$2\r\n10\r\n$3\r\n2.5\r\n$1\r\n3\r\n").await;
    c.expect(b"SORT l BY nosort\r\n", b"*4\r\n$1\r\n3\r\n$2\r\n10\r\n$1\r\n1\r\n$3\r\n2.5\r\n").await;
    c.expect(b"SORT l STORE dst\r\nLRANGE dst 0 0\r\n", b":4\r\n*1\r\n$1\r\n1\r\n").await;
    c.expect(b"SORT missing STORE dst\r\nEXISTS dst\r\n", b":0\r\n:0\r\n").await;
    c.expect(b"RPUSH words b a\r\nSORT words\r\n", b":2\r\n-ERR One or more scores can't be converted into double\r\n").await;
    c.expect(b"SORT l BY w_*\r\n", b"-ERR SORT BY <pattern> and GET are not supported\r\n").await;
    c.expect(b"SET s x\r\nSORT s\r\n", b"+OK\r\n-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn spop_and_srandmember() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"SADD s a\r\nSRANDMEMBER s\r\nSRANDMEMBER s -3\r\n", b":1\r\n$1\r\na\r\n*3\r\n$1\r\na\r\n$1\r\na\r\n$1\r\na\r\n").await;
    c.expect(b"SPOP s\r\nEXISTS s\r\nSPOP s\r\nSPOP s 2\r\n", b"$1\r\na\r\n:0\r\n$-1\r\n*0\r\n").await;
    c.expect(b"SADD t 1 2 3\r\n", b":3\r\n").await;
    // Distinct members, at most the set's size; SPOP removes what it returns.
    c.send(b"SRANDMEMBER t 5\r\n").await;
    let mut members: Vec<String> = String::from_utf8(c.next_reply().await).unwrap().lines().skip(2).step_by(2).map(String::from).collect();
    members.sort();
    assert_eq!(members, ["1", "2", "3"]);
    c.send(b"SPOP t 2\r\n").await;
    assert!(c.next_reply().await.starts_with(b"*2\r\n"));
    c.expect(b"SCARD t\r\nSPOP t -1\r\n", b":1\r\n-ERR value is out of range, must be positive\r\n").await;
    server.stop().await;
}
