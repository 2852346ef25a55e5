//! Keyspace notifications at the wire (notify-keyspace-events): CONFIG SET/GET of the class
//! letters, keyspace and keyevent messages with `new`, a list move (push before pop, then
//! `del` of the emptied source), DEL of a missing key (no event), MULTI/EXEC and a script
//! (events of each command run), class masking, `expired` from the background sweep, and a
//! subscriber with CLIENT REPLY OFF still getting its confirmation and messages. Every reply and
//! every message is the bytes redis-server 7.0.15 sent for the same requests.

mod common;

use common::TestServer;

#[tokio::test]
async fn keyspace_and_keyevent_messages_as_redis() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let mut sub = server.client().await;
    c.expect(b"*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$22\r\nnotify-keyspace-events\r\n$3\r\nKEA\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$6\r\nCONFIG\r\n$3\r\nGET\r\n$22\r\nnotify-keyspace-events\r\n", b"*2\r\n$22\r\nnotify-keyspace-events\r\n$3\r\nAKE\r\n").await;
    c.expect(b"*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$22\r\nnotify-keyspace-events\r\n$2\r\nKq\r\n", b"-ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - Invalid event class character. Use 'Ag$lshzxeKEtmdn'.\r\n").await;
    c.expect(b"*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$22\r\nnotify-keyspace-events\r\n$3\r\ngKE\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$6\r\nCONFIG\r\n$3\r\nGET\r\n$22\r\nnotify-keyspace-events\r\n", b"*2\r\n$22\r\nnotify-keyspace-events\r\n$3\r\ngKE\r\n").await;
    c.expect(b"*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$22\r\nnotify-keyspace-events\r\n$9\r\n$lshzxeKE\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$6\r\nCONFIG\r\n$3\r\nGET\r\n$22\r\nnotify-keyspace-events\r\n", b"*2\r\n$22\r\nnotify-keyspace-events\r\n$9\r\n$lshzxeKE\r\n").await;
    c.expect(b"*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$22\r\nnotify-keyspace-events\r\n$4\r\nKEAn\r\n", b"+OK\r\n").await;
    sub.expect(b"*3\r\n$6\r\nCLIENT\r\n$5\r\nREPLY\r\n$3\r\nOFF\r\n", b"").await;
    sub.expect(b"*2\r\n$10\r\nPSUBSCRIBE\r\n$1\r\n*\r\n", b"*3\r\n$10\r\npsubscribe\r\n$1\r\n*\r\n:1\r\n").await;
    c.expect(b"*5\r\n$3\r\nSET\r\n$3\r\nfoo\r\n$3\r\nbar\r\n$2\r\nEX\r\n$3\r\n100\r\n", b"+OK\r\n").await;
    sub.expect(b"", b"*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$18\r\n__keyspace@0__:foo\r\n$3\r\nnew\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$18\r\n__keyevent@0__:new\r\n$3\r\nfoo\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$18\r\n__keyspace@0__:foo\r\n$3\r\nset\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$18\r\n__keyevent@0__:set\r\n$3\r\nfoo\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$18\r\n__keyspace@0__:foo\r\n$6\r\nexpire\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$21\r\n__keyevent@0__:expire\r\n$3\r\nfoo\r\n").await;
    c.expect(b"*2\r\n$6\r\nSELECT\r\n$1\r\n9\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$5\r\nRPUSH\r\n$1\r\nl\r\n$1\r\na\r\n", b":1\r\n").await;
    sub.expect(b"", b"*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$16\r\n__keyspace@9__:l\r\n$3\r\nnew\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$18\r\n__keyevent@9__:new\r\n$1\r\nl\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$16\r\n__keyspace@9__:l\r\n$5\r\nrpush\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$20\r\n__keyevent@9__:rpush\r\n$1\r\nl\r\n").await;
    c.expect(b"*5\r\n$5\r\nLMOVE\r\n$1\r\nl\r\n$2\r\nl2\r\n$4\r\nLEFT\r\n$5\r\nRIGHT\r\n", b"$1\r\na\r\n").await;
    sub.expect(b"", b"*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$17\r\n__keyspace@9__:l2\r\n$3\r\nnew\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$18\r\n__keyevent@9__:new\r\n$2\r\nl2\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$17\r\n__keyspace@9__:l2\r\n$5\r\nrpush\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$20\r\n__keyevent@9__:rpush\r\n$2\r\nl2\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$16\r\n__keyspace@9__:l\r\n$4\r\nlpop\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$19\r\n__keyevent@9__:lpop\r\n$1\r\nl\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$16\r\n__keyspace@9__:l\r\n$3\r\ndel\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$18\r\n__keyevent@9__:del\r\n$1\r\nl\r\n").await;
    c.expect(b"*3\r\n$4\r\nSREM\r\n$1\r\ns\r\n$1\r\nx\r\n", b":0\r\n").await;
    c.expect(b"*3\r\n$3\r\nDEL\r\n$2\r\nl2\r\n$5\r\nnokey\r\n", b":1\r\n").await;
    sub.expect(b"", b"*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$17\r\n__keyspace@9__:l2\r\n$3\r\ndel\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$18\r\n__keyevent@9__:del\r\n$2\r\nl2\r\n").await;
    c.expect(b"*1\r\n$5\r\nMULTI\r\n", b"+OK\r\n").await;
    c.expect(b"*4\r\n$4\r\nHSET\r\n$1\r\nh\r\n$1\r\nf\r\n$1\r\nv\r\n", b"+QUEUED\r\n").await;
    c.expect(b"*3\r\n$4\r\nHDEL\r\n$1\r\nh\r\n$1\r\nf\r\n", b"+QUEUED\r\n").await;
    c.expect(b"*1\r\n$4\r\nEXEC\r\n", b"*2\r\n:1\r\n:1\r\n").await;
    sub.expect(b"", b"*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$16\r\n__keyspace@9__:h\r\n$3\r\nnew\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$18\r\n__keyevent@9__:new\r\n$1\r\nh\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$16\r\n__keyspace@9__:h\r\n$4\r\nhset\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$19\r\n__keyevent@9__:hset\r\n$1\r\nh\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$16\r\n__keyspace@9__:h\r\n$4\r\nhdel\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$19\r\n__keyevent@9__:hdel\r\n$1\r\nh\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$16\r\n__keyspace@9__:h\r\n$3\r\ndel\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$18\r\n__keyevent@9__:del\r\n$1\r\nh\r\n").await;
    c.expect(b"*4\r\n$4\r\nEVAL\r\n$74\r\nredis.call('zadd', KEYS[1], 1, 'm'); return redis.call('zpopmin', KEYS[1])\r\n$1\r\n1\r\n$1\r\nz\r\n", b"*2\r\n$1\r\nm\r\n$1\r\n1\r\n").await;
    sub.expect(b"", b"*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$16\r\n__keyspace@9__:z\r\n$3\r\nnew\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$18\r\n__keyevent@9__:new\r\n$1\r\nz\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$16\r\n__keyspace@9__:z\r\n$4\r\nzadd\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$19\r\n__keyevent@9__:zadd\r\n$1\r\nz\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$16\r\n__keyspace@9__:z\r\n$7\r\nzpopmin\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$22\r\n__keyevent@9__:zpopmin\r\n$1\r\nz\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$16\r\n__keyspace@9__:z\r\n$3\r\ndel\r\n*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$18\r\n__keyevent@9__:del\r\n$1\r\nz\r\n").await;
    c.expect(b"*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$22\r\nnotify-keyspace-events\r\n$2\r\nKl\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$5\r\nquiet\r\n$1\r\n1\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$5\r\nLPUSH\r\n$1\r\nl\r\n$1\r\nx\r\n", b":1\r\n").await;
    sub.expect(b"", b"*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$16\r\n__keyspace@9__:l\r\n$5\r\nlpush\r\n").await;
    c.expect(b"*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$22\r\nnotify-keyspace-events\r\n$2\r\nEx\r\n", b"+OK\r\n").await;
    c.expect(b"*4\r\n$6\r\nPSETEX\r\n$1\r\ne\r\n$2\r\n50\r\n$1\r\nv\r\n", b"+OK\r\n").await;
    // The background sweep (or any access) tells of the expiry within about its 50 ms.
    sub.expect(b"", b"*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$22\r\n__keyevent@9__:expired\r\n$1\r\ne\r\n").await;
    c.expect(b"*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$22\r\nnotify-keyspace-events\r\n$0\r\n\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$5\r\nquiet\r\n$1\r\n2\r\n", b"+OK\r\n").await;
    // Nothing arrived after notifications were turned off: the next bytes are this message.
    c.expect(b"*3\r\n$7\r\nPUBLISH\r\n$3\r\nend\r\n$1\r\nx\r\n", b":1\r\n").await;
    sub.expect(b"", b"*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$3\r\nend\r\n$1\r\nx\r\n").await;
    server.stop().await;
}
