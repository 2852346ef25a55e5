//! ZINCRBY at the wire, with exact bytes.

mod common;

use common::TestServer;

#[tokio::test]
async fn zincrby() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"ZINCRBY z 2.5 m\r\nZINCRBY z -1 m\r\nZSCORE z m\r\n", b"$3\r\n2.5\r\n$3\r\n1.5\r\n$3\r\n1.5\r\n").await;
    c.expect(b"ZINCRBY z x m\r\n", b"-ERR value is not a valid float\r\n").await;
    c.expect(b"ZINCRBY z +inf m\r\nZINCRBY z -inf m\r\n", b"$3\r\ninf\r\n-ERR resulting score is not a number (NaN)\r\n").await;
    c.expect(b"SET s x\r\nZINCRBY s 1 m\r\n", b"+OK\r\n-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    server.stop().await;
}
