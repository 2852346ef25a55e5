//! CLIENT REPLY ON|OFF|SKIP at the wire (RESP3 subscribe confirmations are pushes and still
//! arrive), and RENAMENX and SMISMEMBER, with exact bytes.

mod common;

use common::TestServer;

#[tokio::test]
async fn client_reply_off_skip_on() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"CLIENT REPLY OFF\r\nSET a 1\r\nCLIENT REPLY ON\r\n", b"+OK\r\n").await;
    c.expect(b"CLIENT REPLY SKIP\r\nGET a\r\nGET a\r\n", b"$1\r\n1\r\n").await;
    c.expect(b"CLIENT REPLY MAYBE\r\n", b"-ERR syntax error\r\n").await;
    c.send(b"HELLO 3\r\n").await;
    c.read_reply().await;
    c.expect(b"CLIENT REPLY OFF\r\nSUBSCRIBE ch\r\nPING\r\nCLIENT REPLY ON\r\n", b">3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n+OK\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn renamenx_and_smismember() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"SET a 1\r\nSET b 2\r\n", b"+OK\r\n+OK\r\n").await;
    c.expect(b"RENAMENX a b\r\n", b":0\r\n").await;
    c.expect(b"RENAMENX a c\r\nGET c\r\nEXISTS a\r\n", b":1\r\n$1\r\n1\r\n:0\r\n").await;
    c.expect(b"RENAMENX nope x\r\n", b"-ERR no such key\r\n").await;
    c.expect(b"SADD s x y\r\nSMISMEMBER s x z y\r\n", b":2\r\n*3\r\n:1\r\n:0\r\n:1\r\n").await;
    c.expect(b"SMISMEMBER none x\r\n", b"*1\r\n:0\r\n").await;
    c.expect(b"SMISMEMBER c x\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    server.stop().await;
}
