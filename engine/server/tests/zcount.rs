//! ZCOUNT and ZLEXCOUNT at the wire, with exact bytes (the replies redis-server 7.0 gives).

mod common;

use common::TestServer;

#[tokio::test]
async fn zcount_and_zlexcount() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"ZADD z 1 a 2 b 3 c 3 d\r\n", b":4\r\n").await;
    c.expect(b"ZCOUNT z -inf +inf\r\nZCOUNT z (1 3\r\nZCOUNT z 2 (3\r\nZCOUNT z 5 9\r\nZCOUNT none 0 1\r\n", b":4\r\n:3\r\n:1\r\n:0\r\n:0\r\n").await;
    c.expect(b"ZCOUNT z x 1\r\n", b"-ERR min or max is not a float\r\n").await;
    c.expect(b"ZADD l 0 a 0 b 0 c 0 d\r\n", b":4\r\n").await;
    c.expect(b"ZLEXCOUNT l - +\r\nZLEXCOUNT l [b (d\r\nZLEXCOUNT l (a [a\r\n", b":4\r\n:2\r\n:0\r\n").await;
    c.expect(b"ZLEXCOUNT l a b\r\n", b"-ERR min or max not valid string range item\r\n").await;
    c.expect(b"SET s x\r\nZCOUNT s 0 1\r\nZLEXCOUNT s - +\r\n", b"+OK\r\n-WRONGTYPE Operation against a key holding the wrong kind of value\r\n-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    server.stop().await;
}
