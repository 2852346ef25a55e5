//! Logical databases at the wire: SELECT, MOVE, SWAPDB, per-database FLUSHDB, DBSIZE, SCAN,
//! KEYS, RANDOMKEY and INFO keyspace, with exact reply bytes.

mod common;

use common::TestServer;

#[tokio::test]
async fn select_keeps_databases_apart() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"SET k zero\r\n", b"+OK\r\n").await;
    c.expect(b"SELECT 9\r\n", b"+OK\r\n").await;
    c.expect(b"GET k\r\n", b"$-1\r\n").await;
    c.expect(b"SET k nine\r\n", b"+OK\r\n").await;
    c.expect(b"SET other 1\r\n", b"+OK\r\n").await;
    c.expect(b"DBSIZE\r\n", b":2\r\n").await;
    c.expect(b"KEYS o*\r\n", b"*1\r\n$5\r\nother\r\n").await;
    c.expect(b"SELECT 0\r\n", b"+OK\r\n").await;
    c.expect(b"GET k\r\n", b"$4\r\nzero\r\n").await;
    c.expect(b"DBSIZE\r\n", b":1\r\n").await;
    c.expect(b"SCAN 0\r\n", b"*2\r\n$1\r\n0\r\n*1\r\n$1\r\nk\r\n").await;
    c.expect(b"RANDOMKEY\r\n", b"$1\r\nk\r\n").await;
    c.expect(b"SELECT 16\r\n", b"-ERR DB index is out of range\r\n").await;
    c.expect(b"SELECT -1\r\n", b"-ERR DB index is out of range\r\n").await;
    c.expect(b"SELECT x\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"CONFIG GET databases\r\n", b"*2\r\n$9\r\ndatabases\r\n$2\r\n16\r\n").await;
    // Another connection starts in database 0 and sees the keyspace of every database.
    let mut d = server.client().await;
    c.expect(b"EXPIRE k 1000\r\n", b":1\r\n").await;
    d.send(b"INFO keyspace\r\n").await;
    let info = String::from_utf8(d.next_reply().await).unwrap();
    assert!(info.contains("db0:keys=1,expires=1,avg_ttl=0\r\ndb9:keys=2,expires=0,avg_ttl=0\r\n"), "{info}");
    server.stop().await;
}

#[tokio::test]
async fn move_swapdb_and_flushdb() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"SET a 1\r\n", b"+OK\r\n").await;
    c.expect(b"HSET h f v\r\n", b":1\r\n").await;
    c.expect(b"MOVE a 3\r\n", b":1\r\n").await;
    c.expect(b"MOVE a 3\r\n", b":0\r\n").await;
    c.expect(b"MOVE a 0\r\n", b"-ERR source and destination objects are the same\r\n").await;
    c.expect(b"MOVE a 99\r\n", b"-ERR DB index is out of range\r\n").await;
    c.expect(b"EXISTS a\r\n", b":0\r\n").await;
    c.expect(b"SELECT 3\r\n", b"+OK\r\n").await;
    c.expect(b"GET a\r\n", b"$1\r\n1\r\n").await;
    // A key already in the target is not moved.
    c.expect(b"SET h other\r\n", b"+OK\r\n").await;
    c.expect(b"SELECT 0\r\n", b"+OK\r\n").await;
    c.expect(b"MOVE h 3\r\n", b":0\r\n").await;
    c.expect(b"HGET h f\r\n", b"$1\r\nv\r\n").await;
    // SWAPDB: the connection keeps its number and sees the other data.
    c.expect(b"SWAPDB 0 3\r\n", b"+OK\r\n").await;
    c.expect(b"GET a\r\n", b"$1\r\n1\r\n").await;
    c.expect(b"GET h\r\n", b"$5\r\nother\r\n").await;
    c.expect(b"SWAPDB 0 x\r\n", b"-ERR invalid second DB index\r\n").await;
    c.expect(b"SWAPDB 0 16\r\n", b"-ERR DB index is out of range\r\n").await;
    // FLUSHDB empties only the selected database.
    c.expect(b"FLUSHDB\r\n", b"+OK\r\n").await;
    c.expect(b"DBSIZE\r\n", b":0\r\n").await;
    c.expect(b"SELECT 3\r\n", b"+OK\r\n").await;
    c.expect(b"HGET h f\r\n", b"$1\r\nv\r\n").await;
    c.expect(b"FLUSHALL\r\n", b"+OK\r\n").await;
    c.expect(b"DBSIZE\r\n", b":0\r\n").await;
    c.send(b"CLIENT INFO\r\n").await;
    let info = String::from_utf8(c.next_reply().await).unwrap();
    assert!(info.contains(" db=3 "), "{info}");
    c.expect(b"RESET\r\n", b"+RESET\r\n").await;
    c.send(b"CLIENT INFO\r\n").await;
    let info = String::from_utf8(c.next_reply().await).unwrap();
    assert!(info.contains(" db=0 "), "{info}");
    server.stop().await;
}

#[tokio::test]
async fn databases_setting_bounds_select() {
    let server = TestServer::start_with(|c| c.databases = 2).await;
    let mut c = server.client().await;
    c.expect(b"SELECT 1\r\n", b"+OK\r\n").await;
    c.expect(b"SELECT 2\r\n", b"-ERR DB index is out of range\r\n").await;
    server.stop().await;
}
