//! Stream commands at the wire: exact bytes, each the reply redis-server 7.0.15 gave to the
//! same request in a differential run (ids given explicitly, so no reply depends on the clock).

mod common;

use common::TestServer;

#[tokio::test]
async fn stream_entries() {
    // XADD (ids, NOMKSTREAM, MAXLEN/MINID/LIMIT errors), XLEN, XRANGE/XREVRANGE (exclusive and partial ids, COUNT), XDEL, XTRIM, XSETID, XINFO STREAM, WRONGTYPE.
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"*1\r\n$8\r\nFLUSHALL\r\n", b"+OK\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n1-1\r\n$1\r\na\r\n$1\r\n1\r\n", b"$3\r\n1-1\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n1-1\r\n$1\r\na\r\n$1\r\n1\r\n", b"-ERR The ID specified in XADD is equal or smaller than the target stream top item\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$1\r\n1\r\n$1\r\nb\r\n$1\r\n2\r\n", b"-ERR The ID specified in XADD is equal or smaller than the target stream top item\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n1-*\r\n$1\r\nc\r\n$1\r\n3\r\n", b"$3\r\n1-2\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n2-*\r\n$1\r\nd\r\n$1\r\n4\r\n", b"$3\r\n2-0\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n0-0\r\n$1\r\na\r\n$1\r\n1\r\n", b"-ERR The ID specified in XADD must be greater than 0-0\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$1\r\n0\r\n$1\r\na\r\n$1\r\n1\r\n", b"-ERR The ID specified in XADD must be greater than 0-0\r\n").await;
    c.expect(b"*4\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n5-5\r\n$1\r\na\r\n", b"-ERR wrong number of arguments for 'xadd' command\r\n").await;
    c.expect(b"*3\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n5-5\r\n", b"-ERR wrong number of arguments for 'xadd' command\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\nabc\r\n$1\r\na\r\n$1\r\n1\r\n", b"-ERR Invalid stream ID specified as stream command argument\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n1-x\r\n$1\r\na\r\n$1\r\n1\r\n", b"-ERR Invalid stream ID specified as stream command argument\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$1\r\n-\r\n$1\r\na\r\n$1\r\n1\r\n", b"-ERR Invalid stream ID specified as stream command argument\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$1\r\n+\r\n$1\r\na\r\n$1\r\n1\r\n", b"-ERR Invalid stream ID specified as stream command argument\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$4\r\n01-1\r\n$1\r\na\r\n$1\r\n1\r\n", b"-ERR The ID specified in XADD is equal or smaller than the target stream top item\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$22\r\n18446744073709551616-0\r\n$1\r\na\r\n$1\r\n1\r\n", b"-ERR Invalid stream ID specified as stream command argument\r\n").await;
    c.expect(b"*6\r\n$4\r\nXADD\r\n$3\r\nnos\r\n$10\r\nNOMKSTREAM\r\n$3\r\n1-1\r\n$1\r\na\r\n$1\r\n1\r\n", b"$-1\r\n").await;
    c.expect(b"*2\r\n$6\r\nEXISTS\r\n$3\r\nnos\r\n", b":0\r\n").await;
    c.expect(b"*7\r\n$4\r\nXADD\r\n$1\r\ns\r\n$6\r\nMAXLEN\r\n$2\r\n-1\r\n$4\r\n10-0\r\n$1\r\na\r\n$1\r\n1\r\n", b"-ERR The MAXLEN argument must be >= 0.\r\n").await;
    c.expect(b"*9\r\n$4\r\nXADD\r\n$1\r\ns\r\n$6\r\nMAXLEN\r\n$1\r\n2\r\n$5\r\nLIMIT\r\n$2\r\n10\r\n$4\r\n10-0\r\n$1\r\na\r\n$1\r\n1\r\n", b"-ERR syntax error, LIMIT cannot be used without the special ~ option\r\n").await;
    c.expect(b"*7\r\n$4\r\nXADD\r\n$1\r\ns\r\n$5\r\nLIMIT\r\n$2\r\n10\r\n$4\r\n10-0\r\n$1\r\na\r\n$1\r\n1\r\n", b"-ERR syntax error, LIMIT cannot be used without specifying a trimming strategy\r\n").await;
    c.expect(b"*9\r\n$4\r\nXADD\r\n$1\r\ns\r\n$6\r\nMAXLEN\r\n$1\r\n2\r\n$5\r\nMINID\r\n$1\r\n1\r\n$4\r\n10-0\r\n$1\r\na\r\n$1\r\n1\r\n", b"-ERR syntax error, MAXLEN and MINID options at the same time are not compatible\r\n").await;
    c.expect(b"*8\r\n$4\r\nXADD\r\n$1\r\ns\r\n$6\r\nMAXLEN\r\n$1\r\n=\r\n$3\r\n100\r\n$4\r\n10-0\r\n$1\r\na\r\n$1\r\n1\r\n", b"$4\r\n10-0\r\n").await;
    c.expect(b"*2\r\n$4\r\nXLEN\r\n$1\r\ns\r\n", b":4\r\n").await;
    c.expect(b"*2\r\n$4\r\nXLEN\r\n$5\r\nnokey\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$1\r\n-\r\n$1\r\n+\r\n", b"*4\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n*2\r\n$3\r\n2-0\r\n*2\r\n$1\r\nd\r\n$1\r\n4\r\n*2\r\n$4\r\n10-0\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n").await;
    c.expect(b"*6\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$1\r\n-\r\n$1\r\n+\r\n$5\r\nCOUNT\r\n$1\r\n2\r\n", b"*2\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n").await;
    c.expect(b"*6\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$1\r\n-\r\n$1\r\n+\r\n$5\r\nCOUNT\r\n$1\r\n0\r\n", b"*-1\r\n").await;
    c.expect(b"*6\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$1\r\n-\r\n$1\r\n+\r\n$5\r\nCOUNT\r\n$2\r\n-1\r\n", b"*-1\r\n").await;
    c.expect(b"*4\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$4\r\n(1-1\r\n$1\r\n+\r\n", b"*3\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n*2\r\n$3\r\n2-0\r\n*2\r\n$1\r\nd\r\n$1\r\n4\r\n*2\r\n$4\r\n10-0\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n").await;
    c.expect(b"*4\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$1\r\n1\r\n$1\r\n1\r\n", b"*2\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n").await;
    c.expect(b"*4\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$2\r\n(1\r\n$1\r\n+\r\n", b"*4\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n*2\r\n$3\r\n2-0\r\n*2\r\n$1\r\nd\r\n$1\r\n4\r\n*2\r\n$4\r\n10-0\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n").await;
    c.expect(b"*4\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$1\r\n-\r\n$4\r\n(2-0\r\n", b"*2\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n").await;
    c.expect(b"*5\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$1\r\n-\r\n$1\r\n+\r\n$5\r\nCOUNT\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*6\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$1\r\n-\r\n$1\r\n+\r\n$3\r\nFOO\r\n$1\r\n1\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*4\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$2\r\n(-\r\n$1\r\n+\r\n", b"-ERR Invalid stream ID specified as stream command argument\r\n").await;
    c.expect(b"*4\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$1\r\n-\r\n$4\r\n(0-0\r\n", b"-ERR invalid end ID for the interval\r\n").await;
    c.expect(b"*4\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$42\r\n(18446744073709551615-18446744073709551615\r\n$1\r\n+\r\n", b"-ERR invalid start ID for the interval\r\n").await;
    c.expect(b"*4\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$1\r\nx\r\n$1\r\n+\r\n", b"-ERR Invalid stream ID specified as stream command argument\r\n").await;
    c.expect(b"*4\r\n$6\r\nXRANGE\r\n$5\r\nnokey\r\n$1\r\n-\r\n$1\r\n+\r\n", b"*0\r\n").await;
    c.expect(b"*4\r\n$9\r\nXREVRANGE\r\n$1\r\ns\r\n$1\r\n+\r\n$1\r\n-\r\n", b"*4\r\n*2\r\n$4\r\n10-0\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n2-0\r\n*2\r\n$1\r\nd\r\n$1\r\n4\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n").await;
    c.expect(b"*6\r\n$9\r\nXREVRANGE\r\n$1\r\ns\r\n$1\r\n+\r\n$1\r\n-\r\n$5\r\nCOUNT\r\n$1\r\n1\r\n", b"*1\r\n*2\r\n$4\r\n10-0\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n").await;
    c.expect(b"*4\r\n$9\r\nXREVRANGE\r\n$1\r\ns\r\n$5\r\n(10-0\r\n$1\r\n-\r\n", b"*3\r\n*2\r\n$3\r\n2-0\r\n*2\r\n$1\r\nd\r\n$1\r\n4\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n").await;
    c.expect(b"*4\r\n$9\r\nXREVRANGE\r\n$1\r\ns\r\n$1\r\n2\r\n$1\r\n1\r\n", b"*3\r\n*2\r\n$3\r\n2-0\r\n*2\r\n$1\r\nd\r\n$1\r\n4\r\n*2\r\n$3\r\n1-2\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n").await;
    c.expect(b"*3\r\n$4\r\nXDEL\r\n$1\r\ns\r\n$3\r\n1-2\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$4\r\nXDEL\r\n$1\r\ns\r\n$3\r\n1-2\r\n$4\r\n99-0\r\n", b":0\r\n").await;
    c.expect(b"*3\r\n$4\r\nXDEL\r\n$1\r\ns\r\n$3\r\nbad\r\n", b"-ERR Invalid stream ID specified as stream command argument\r\n").await;
    c.expect(b"*3\r\n$4\r\nXDEL\r\n$5\r\nnokey\r\n$3\r\n1-1\r\n", b":0\r\n").await;
    c.expect(b"*2\r\n$4\r\nXLEN\r\n$1\r\ns\r\n", b":3\r\n").await;
    c.expect(b"*4\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$1\r\n-\r\n$1\r\n+\r\n", b"*3\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n2-0\r\n*2\r\n$1\r\nd\r\n$1\r\n4\r\n*2\r\n$4\r\n10-0\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n").await;
    c.expect(b"*4\r\n$5\r\nXTRIM\r\n$1\r\ns\r\n$6\r\nMAXLEN\r\n$1\r\n2\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$5\r\nXTRIM\r\n$1\r\ns\r\n$6\r\nMAXLEN\r\n$3\r\n100\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$5\r\nXTRIM\r\n$1\r\ns\r\n$5\r\nMINID\r\n$2\r\n10\r\n", b":1\r\n").await;
    c.expect(b"*2\r\n$5\r\nXTRIM\r\n$1\r\ns\r\n", b"-ERR wrong number of arguments for 'xtrim' command\r\n").await;
    c.expect(b"*6\r\n$5\r\nXTRIM\r\n$1\r\ns\r\n$5\r\nLIMIT\r\n$1\r\n5\r\n$6\r\nMAXLEN\r\n$1\r\n1\r\n", b"-ERR syntax error, LIMIT cannot be used without the special ~ option\r\n").await;
    c.expect(b"*7\r\n$5\r\nXTRIM\r\n$1\r\ns\r\n$6\r\nMAXLEN\r\n$1\r\n=\r\n$1\r\n1\r\n$5\r\nLIMIT\r\n$1\r\n5\r\n", b"-ERR syntax error, LIMIT cannot be used without the special ~ option\r\n").await;
    c.expect(b"*7\r\n$5\r\nXTRIM\r\n$1\r\ns\r\n$6\r\nMAXLEN\r\n$1\r\n~\r\n$1\r\n1\r\n$5\r\nLIMIT\r\n$2\r\n-5\r\n", b"-ERR The LIMIT argument must be >= 0.\r\n").await;
    c.expect(b"*4\r\n$5\r\nXTRIM\r\n$5\r\nnokey\r\n$6\r\nMAXLEN\r\n$1\r\n1\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$5\r\nXTRIM\r\n$1\r\ns\r\n$3\r\nFOO\r\n$1\r\n1\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*4\r\n$6\r\nXRANGE\r\n$1\r\ns\r\n$1\r\n-\r\n$1\r\n+\r\n", b"*1\r\n*2\r\n$4\r\n10-0\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$3\r\nstr\r\n$1\r\nx\r\n", b"+OK\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$3\r\nstr\r\n$3\r\n1-1\r\n$1\r\na\r\n$1\r\n1\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*2\r\n$4\r\nXLEN\r\n$3\r\nstr\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*4\r\n$6\r\nXRANGE\r\n$3\r\nstr\r\n$1\r\n-\r\n$1\r\n+\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*4\r\n$5\r\nXTRIM\r\n$3\r\nstr\r\n$6\r\nMAXLEN\r\n$1\r\n1\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$4\r\nXDEL\r\n$3\r\nstr\r\n$3\r\n1-1\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*2\r\n$4\r\nTYPE\r\n$1\r\ns\r\n", b"+stream\r\n").await;
    c.expect(b"*3\r\n$6\r\nOBJECT\r\n$8\r\nENCODING\r\n$1\r\ns\r\n", b"$6\r\nstream\r\n").await;
    c.expect(b"*3\r\n$6\r\nXSETID\r\n$1\r\ns\r\n$3\r\n5-0\r\n", b"-ERR The ID specified in XSETID is smaller than the target stream top item\r\n").await;
    c.expect(b"*3\r\n$6\r\nXSETID\r\n$1\r\ns\r\n$4\r\n20-0\r\n", b"+OK\r\n").await;
    c.expect(b"*5\r\n$6\r\nXSETID\r\n$1\r\ns\r\n$4\r\n30-0\r\n$12\r\nENTRIESADDED\r\n$1\r\n0\r\n", b"-ERR The entries_added specified in XSETID is smaller than the target stream length\r\n").await;
    c.expect(b"*7\r\n$6\r\nXSETID\r\n$1\r\ns\r\n$4\r\n30-0\r\n$12\r\nENTRIESADDED\r\n$1\r\n1\r\n$12\r\nMAXDELETEDID\r\n$4\r\n40-0\r\n", b"-ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id\r\n").await;
    c.expect(b"*7\r\n$6\r\nXSETID\r\n$1\r\ns\r\n$4\r\n30-0\r\n$12\r\nENTRIESADDED\r\n$3\r\n100\r\n$12\r\nMAXDELETEDID\r\n$4\r\n25-0\r\n", b"+OK\r\n").await;
    c.expect(b"*5\r\n$6\r\nXSETID\r\n$1\r\ns\r\n$4\r\n30-0\r\n$12\r\nENTRIESADDED\r\n$2\r\n-1\r\n", b"-ERR entries_added must be positive\r\n").await;
    c.expect(b"*4\r\n$6\r\nXSETID\r\n$1\r\ns\r\n$4\r\n30-0\r\n$3\r\nFOO\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*3\r\n$6\r\nXSETID\r\n$5\r\nnokey\r\n$3\r\n1-1\r\n", b"-ERR no such key\r\n").await;
    c.expect(b"*3\r\n$6\r\nXSETID\r\n$3\r\nstr\r\n$3\r\n1-1\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nSTREAM\r\n$1\r\ns\r\n", b"*20\r\n$6\r\nlength\r\n:1\r\n$15\r\nradix-tree-keys\r\n:1\r\n$16\r\nradix-tree-nodes\r\n:2\r\n$17\r\nlast-generated-id\r\n$4\r\n30-0\r\n$20\r\nmax-deleted-entry-id\r\n$4\r\n25-0\r\n$13\r\nentries-added\r\n:100\r\n$23\r\nrecorded-first-entry-id\r\n$4\r\n10-0\r\n$6\r\ngroups\r\n:0\r\n$11\r\nfirst-entry\r\n*2\r\n$4\r\n10-0\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n$10\r\nlast-entry\r\n*2\r\n$4\r\n10-0\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$2\r\n31\r\n$1\r\nx\r\n$1\r\ny\r\n", b"$4\r\n31-0\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nSTREAM\r\n$5\r\nnokey\r\n", b"-ERR no such key\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nSTREAM\r\n$3\r\nstr\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$3\r\nFOO\r\n$1\r\ns\r\n", b"-ERR unknown subcommand 'FOO'. Try XINFO HELP.\r\n").await;
    c.expect(b"*8\r\n$4\r\nXADD\r\n$1\r\ns\r\n$6\r\nMAXLEN\r\n$1\r\n~\r\n$3\r\n100\r\n$4\r\n40-0\r\n$1\r\na\r\n$1\r\n1\r\n", b"$4\r\n40-0\r\n").await;
    c.expect(b"*2\r\n$5\r\nXINFO\r\n$4\r\nHELP\r\n", b"*9\r\n+XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+CONSUMERS <key> <groupname>\r\n+    Show consumers of <groupname>.\r\n+GROUPS <key>\r\n+    Show the stream consumer groups.\r\n+STREAM <key> [FULL [COUNT <count>]\r\n+    Show information about the stream.\r\n+HELP\r\n+    Prints this help.\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$4\r\nHELP\r\n$1\r\nx\r\n", b"-ERR wrong number of arguments for 'xinfo|help' command\r\n").await;
    c.expect(b"*1\r\n$5\r\nXINFO\r\n", b"-ERR wrong number of arguments for 'xinfo' command\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn consumer_groups() {
    // XGROUP (CREATE/MKSTREAM/ENTRIESREAD, CREATECONSUMER, DELCONSUMER, SETID, DESTROY, HELP), XREADGROUP (> and history, NOACK), XREAD errors, XPENDING summary, XACK, XINFO GROUPS (entries-read, lag); XPENDING rows carry the ms since delivery and are left out.
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"*1\r\n$8\r\nFLUSHALL\r\n", b"+OK\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n$1\r\ng\r\n$1\r\n$\r\n", b"-ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.\r\n").await;
    c.expect(b"*6\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n$1\r\ng\r\n$1\r\n$\r\n$8\r\nMKSTREAM\r\n", b"+OK\r\n").await;
    c.expect(b"*6\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n$1\r\ng\r\n$1\r\n$\r\n$8\r\nMKSTREAM\r\n", b"-BUSYGROUP Consumer Group name already exists\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$1\r\ns\r\n", b"*1\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n:0\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n1-1\r\n$1\r\na\r\n$1\r\n1\r\n", b"$3\r\n1-1\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n2-1\r\n$1\r\nb\r\n$1\r\n2\r\n", b"$3\r\n2-1\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n3-1\r\n$1\r\nc\r\n$1\r\n3\r\n", b"$3\r\n3-1\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n$2\r\ng2\r\n$1\r\n0\r\n", b"+OK\r\n").await;
    c.expect(b"*7\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n$2\r\ng3\r\n$1\r\n0\r\n$11\r\nENTRIESREAD\r\n$1\r\n1\r\n", b"+OK\r\n").await;
    c.expect(b"*7\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n$2\r\ng4\r\n$1\r\n0\r\n$11\r\nENTRIESREAD\r\n$2\r\n-2\r\n", b"-ERR value for ENTRIESREAD must be positive or -1\r\n").await;
    c.expect(b"*6\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n$2\r\ng4\r\n$1\r\n0\r\n$3\r\nFOO\r\n", b"-ERR unknown subcommand or wrong number of arguments for 'CREATE'. Try XGROUP HELP.\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n$2\r\ng4\r\n$3\r\nbad\r\n", b"-ERR Invalid stream ID specified as stream command argument\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$14\r\nCREATECONSUMER\r\n$1\r\ns\r\n$1\r\ng\r\n$5\r\nalice\r\n", b":1\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$14\r\nCREATECONSUMER\r\n$1\r\ns\r\n$1\r\ng\r\n$5\r\nalice\r\n", b":0\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$14\r\nCREATECONSUMER\r\n$1\r\ns\r\n$3\r\nnog\r\n$5\r\nalice\r\n", b"-NOGROUP No such consumer group 'nog' for key name 's'\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$14\r\nCREATECONSUMER\r\n$5\r\nnokey\r\n$1\r\ng\r\n$5\r\nalice\r\n", b"-ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$1\r\ns\r\n", b"*3\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:1\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n:3\r\n*12\r\n$4\r\nname\r\n$2\r\ng2\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n:3\r\n*12\r\n$4\r\nname\r\n$2\r\ng3\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n:1\r\n$3\r\nlag\r\n:2\r\n").await;
    c.expect(b"*7\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$2\r\ng2\r\n$3\r\nbob\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n>\r\n", b"*1\r\n*2\r\n$1\r\ns\r\n*3\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n2-1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n").await;
    c.expect(b"*9\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$2\r\ng2\r\n$3\r\nbob\r\n$5\r\nCOUNT\r\n$1\r\n1\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n>\r\n", b"*-1\r\n").await;
    c.expect(b"*7\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$2\r\ng2\r\n$5\r\ncarol\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n>\r\n", b"*-1\r\n").await;
    c.expect(b"*7\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$2\r\ng2\r\n$5\r\ncarol\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n>\r\n", b"*-1\r\n").await;
    c.expect(b"*7\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$2\r\ng2\r\n$5\r\ncarol\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n0\r\n", b"*1\r\n*2\r\n$1\r\ns\r\n*0\r\n").await;
    c.expect(b"*7\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$2\r\ng2\r\n$3\r\nbob\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n0\r\n", b"*1\r\n*2\r\n$1\r\ns\r\n*3\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n2-1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n").await;
    c.expect(b"*7\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$2\r\ng2\r\n$3\r\nbob\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n$\r\n", b"-ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the history of this consumer by specifying a proper ID, or use the > ID to get new messages. The $ ID would just return an empty result set.\r\n").await;
    c.expect(b"*7\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$3\r\nnog\r\n$3\r\nbob\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n>\r\n", b"-NOGROUP No such key 's' or consumer group 'nog' in XREADGROUP with GROUP option\r\n").await;
    c.expect(b"*7\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$2\r\ng2\r\n$3\r\nbob\r\n$7\r\nSTREAMS\r\n$5\r\nnokey\r\n$1\r\n>\r\n", b"-NOGROUP No such key 'nokey' or consumer group 'g2' in XREADGROUP with GROUP option\r\n").await;
    c.expect(b"*6\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$2\r\ng2\r\n$3\r\nbob\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n", b"-ERR wrong number of arguments for 'xreadgroup' command\r\n").await;
    c.expect(b"*4\r\n$10\r\nXREADGROUP\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n>\r\n", b"-ERR wrong number of arguments for 'xreadgroup' command\r\n").await;
    c.expect(b"*7\r\n$5\r\nXREAD\r\n$5\r\nGROUP\r\n$2\r\ng2\r\n$3\r\nbob\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n>\r\n", b"-ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.\r\n").await;
    c.expect(b"*5\r\n$5\r\nXREAD\r\n$5\r\nNOACK\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n0\r\n", b"-ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.\r\n").await;
    c.expect(b"*4\r\n$5\r\nXREAD\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n>\r\n", b"-ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option.\r\n").await;
    c.expect(b"*4\r\n$5\r\nXREAD\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n0\r\n", b"*1\r\n*2\r\n$1\r\ns\r\n*3\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n2-1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n").await;
    c.expect(b"*6\r\n$5\r\nXREAD\r\n$5\r\nCOUNT\r\n$1\r\n1\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n0\r\n", b"*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n").await;
    c.expect(b"*4\r\n$5\r\nXREAD\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n$\r\n", b"*-1\r\n").await;
    c.expect(b"*4\r\n$5\r\nXREAD\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$3\r\n1-1\r\n", b"*1\r\n*2\r\n$1\r\ns\r\n*2\r\n*2\r\n$3\r\n2-1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n").await;
    c.expect(b"*6\r\n$5\r\nXREAD\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$2\r\ns2\r\n$1\r\n0\r\n$1\r\n0\r\n", b"*1\r\n*2\r\n$1\r\ns\r\n*3\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n2-1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n").await;
    c.expect(b"*5\r\n$5\r\nXREAD\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n0\r\n$1\r\n0\r\n", b"-ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.\r\n").await;
    c.expect(b"*4\r\n$5\r\nXREAD\r\n$7\r\nSTREAMS\r\n$5\r\nnokey\r\n$1\r\n0\r\n", b"*-1\r\n").await;
    c.expect(b"*6\r\n$5\r\nXREAD\r\n$5\r\nBLOCK\r\n$2\r\n-1\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n0\r\n", b"-ERR timeout is negative\r\n").await;
    c.expect(b"*6\r\n$5\r\nXREAD\r\n$5\r\nBLOCK\r\n$1\r\nx\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n0\r\n", b"-ERR timeout is not an integer or out of range\r\n").await;
    c.expect(b"*5\r\n$5\r\nXREAD\r\n$3\r\nFOO\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n0\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*3\r\n$5\r\nXREAD\r\n$5\r\nCOUNT\r\n$1\r\n1\r\n", b"-ERR wrong number of arguments for 'xread' command\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$1\r\ns\r\n", b"*3\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:1\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n:3\r\n*12\r\n$4\r\nname\r\n$2\r\ng2\r\n$9\r\nconsumers\r\n:2\r\n$7\r\npending\r\n:3\r\n$17\r\nlast-delivered-id\r\n$3\r\n3-1\r\n$12\r\nentries-read\r\n:3\r\n$3\r\nlag\r\n:0\r\n*12\r\n$4\r\nname\r\n$2\r\ng3\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n:1\r\n$3\r\nlag\r\n:2\r\n").await;
    c.expect(b"*3\r\n$8\r\nXPENDING\r\n$1\r\ns\r\n$2\r\ng2\r\n", b"*4\r\n:3\r\n$3\r\n1-1\r\n$3\r\n3-1\r\n*1\r\n*2\r\n$3\r\nbob\r\n$1\r\n3\r\n").await;
    c.expect(b"*7\r\n$8\r\nXPENDING\r\n$1\r\ns\r\n$2\r\ng2\r\n$1\r\n-\r\n$1\r\n+\r\n$2\r\n10\r\n$6\r\nnobody\r\n", b"*0\r\n").await;
    c.expect(b"*6\r\n$8\r\nXPENDING\r\n$1\r\ns\r\n$2\r\ng2\r\n$1\r\n-\r\n$1\r\n+\r\n$1\r\n0\r\n", b"*0\r\n").await;
    c.expect(b"*5\r\n$8\r\nXPENDING\r\n$1\r\ns\r\n$2\r\ng2\r\n$1\r\n-\r\n$1\r\n+\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*3\r\n$8\r\nXPENDING\r\n$1\r\ns\r\n$3\r\nnog\r\n", b"-NOGROUP No such key 's' or consumer group 'nog'\r\n").await;
    c.expect(b"*3\r\n$8\r\nXPENDING\r\n$5\r\nnokey\r\n$1\r\ng\r\n", b"-NOGROUP No such key 'nokey' or consumer group 'g'\r\n").await;
    c.expect(b"*5\r\n$4\r\nXACK\r\n$1\r\ns\r\n$2\r\ng2\r\n$3\r\n1-1\r\n$3\r\n9-9\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$4\r\nXACK\r\n$1\r\ns\r\n$2\r\ng2\r\n$3\r\n1-1\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$4\r\nXACK\r\n$1\r\ns\r\n$2\r\ng2\r\n$3\r\nbad\r\n", b"-ERR Invalid stream ID specified as stream command argument\r\n").await;
    c.expect(b"*4\r\n$4\r\nXACK\r\n$1\r\ns\r\n$3\r\nnog\r\n$3\r\n1-1\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$4\r\nXACK\r\n$5\r\nnokey\r\n$1\r\ng\r\n$3\r\n1-1\r\n", b":0\r\n").await;
    c.expect(b"*3\r\n$8\r\nXPENDING\r\n$1\r\ns\r\n$2\r\ng2\r\n", b"*4\r\n:2\r\n$3\r\n2-1\r\n$3\r\n3-1\r\n*1\r\n*2\r\n$3\r\nbob\r\n$1\r\n2\r\n").await;
    c.expect(b"*3\r\n$4\r\nXDEL\r\n$1\r\ns\r\n$3\r\n2-1\r\n", b":1\r\n").await;
    c.expect(b"*7\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$2\r\ng2\r\n$3\r\nbob\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n0\r\n", b"*1\r\n*2\r\n$1\r\ns\r\n*2\r\n*2\r\n$3\r\n2-1\r\n*-1\r\n*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$1\r\ns\r\n", b"*3\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:1\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n$-1\r\n*12\r\n$4\r\nname\r\n$2\r\ng2\r\n$9\r\nconsumers\r\n:2\r\n$7\r\npending\r\n:2\r\n$17\r\nlast-delivered-id\r\n$3\r\n3-1\r\n$12\r\nentries-read\r\n:3\r\n$3\r\nlag\r\n:0\r\n*12\r\n$4\r\nname\r\n$2\r\ng3\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n:1\r\n$3\r\nlag\r\n$-1\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$11\r\nDELCONSUMER\r\n$1\r\ns\r\n$2\r\ng2\r\n$3\r\nbob\r\n", b":2\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$11\r\nDELCONSUMER\r\n$1\r\ns\r\n$2\r\ng2\r\n$3\r\nbob\r\n", b":0\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$11\r\nDELCONSUMER\r\n$1\r\ns\r\n$3\r\nnog\r\n$3\r\nbob\r\n", b"-NOGROUP No such consumer group 'nog' for key name 's'\r\n").await;
    c.expect(b"*3\r\n$8\r\nXPENDING\r\n$1\r\ns\r\n$2\r\ng2\r\n", b"*4\r\n:0\r\n$-1\r\n$-1\r\n*-1\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$5\r\nSETID\r\n$1\r\ns\r\n$2\r\ng2\r\n$1\r\n0\r\n", b"+OK\r\n").await;
    c.expect(b"*7\r\n$6\r\nXGROUP\r\n$5\r\nSETID\r\n$1\r\ns\r\n$2\r\ng2\r\n$1\r\n$\r\n$11\r\nENTRIESREAD\r\n$1\r\n3\r\n", b"+OK\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$5\r\nSETID\r\n$1\r\ns\r\n$2\r\ng2\r\n$1\r\n-\r\n", b"+OK\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$5\r\nSETID\r\n$1\r\ns\r\n$3\r\nnog\r\n$1\r\n0\r\n", b"-NOGROUP No such consumer group 'nog' for key name 's'\r\n").await;
    c.expect(b"*6\r\n$6\r\nXGROUP\r\n$5\r\nSETID\r\n$1\r\ns\r\n$2\r\ng2\r\n$1\r\n0\r\n$8\r\nMKSTREAM\r\n", b"-ERR unknown subcommand or wrong number of arguments for 'SETID'. Try XGROUP HELP.\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$1\r\ns\r\n", b"*3\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:1\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n$-1\r\n*12\r\n$4\r\nname\r\n$2\r\ng2\r\n$9\r\nconsumers\r\n:1\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n$-1\r\n*12\r\n$4\r\nname\r\n$2\r\ng3\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n:1\r\n$3\r\nlag\r\n$-1\r\n").await;
    c.expect(b"*4\r\n$6\r\nXGROUP\r\n$7\r\nDESTROY\r\n$1\r\ns\r\n$2\r\ng3\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$6\r\nXGROUP\r\n$7\r\nDESTROY\r\n$1\r\ns\r\n$2\r\ng3\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$6\r\nXGROUP\r\n$7\r\nDESTROY\r\n$5\r\nnokey\r\n$2\r\ng3\r\n", b"-ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.\r\n").await;
    c.expect(b"*2\r\n$6\r\nXGROUP\r\n$4\r\nHELP\r\n", b"*17\r\n+XGROUP <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+CREATE <key> <groupname> <id|$> [option]\r\n+    Create a new consumer group. Options are:\r\n+    * MKSTREAM\r\n+      Create the empty stream if it does not exist.\r\n+    * ENTRIESREAD entries_read\r\n+      Set the group's entries_read counter (internal use).\r\n+CREATECONSUMER <key> <groupname> <consumer>\r\n+    Create a new consumer in the specified group.\r\n+DELCONSUMER <key> <groupname> <consumer>\r\n+    Remove the specified consumer.\r\n+DESTROY <key> <groupname>\r\n+    Remove the specified group.\r\n+SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]\r\n+    Set the current group ID and entries_read counter.\r\n+HELP\r\n+    Prints this help.\r\n").await;
    c.expect(b"*2\r\n$6\r\nXGROUP\r\n$3\r\nFOO\r\n", b"-ERR unknown subcommand 'FOO'. Try XGROUP HELP.\r\n").await;
    c.expect(b"*3\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n", b"-ERR wrong number of arguments for 'xgroup|create' command\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$1\r\ns\r\n", b"*2\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:1\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n$-1\r\n*12\r\n$4\r\nname\r\n$2\r\ng2\r\n$9\r\nconsumers\r\n:1\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n$-1\r\n").await;
    c.expect(b"*8\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$2\r\ng2\r\n$3\r\ndan\r\n$5\r\nNOACK\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n>\r\n", b"*1\r\n*2\r\n$1\r\ns\r\n*2\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n").await;
    c.expect(b"*3\r\n$8\r\nXPENDING\r\n$1\r\ns\r\n$2\r\ng2\r\n", b"*4\r\n:0\r\n$-1\r\n$-1\r\n*-1\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$1\r\ns\r\n", b"*2\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:1\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n$-1\r\n*12\r\n$4\r\nname\r\n$2\r\ng2\r\n$9\r\nconsumers\r\n:2\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n3-1\r\n$12\r\nentries-read\r\n:3\r\n$3\r\nlag\r\n:0\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$3\r\nstr\r\n$1\r\nx\r\n", b"+OK\r\n").await;
    c.expect(b"*7\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$1\r\ng\r\n$3\r\nstr\r\n$7\r\nSTREAMS\r\n$3\r\nstr\r\n$1\r\n>\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*4\r\n$5\r\nXREAD\r\n$7\r\nSTREAMS\r\n$3\r\nstr\r\n$1\r\n0\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$3\r\nstr\r\n$1\r\ng\r\n$1\r\n$\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$3\r\nstr\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$8\r\nXPENDING\r\n$3\r\nstr\r\n$1\r\ng\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*4\r\n$4\r\nXACK\r\n$3\r\nstr\r\n$1\r\ng\r\n$3\r\n1-1\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn claims_and_lag() {
    // XCLAIM (JUSTID, RETRYCOUNT, FORCE, options errors), XAUTOCLAIM (COUNT, JUSTID, deleted entries), lag after XDEL/XSETID/XTRIM.
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"*1\r\n$8\r\nFLUSHALL\r\n", b"+OK\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n1-1\r\n$1\r\na\r\n$1\r\n1\r\n", b"$3\r\n1-1\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n2-1\r\n$1\r\nb\r\n$1\r\n2\r\n", b"$3\r\n2-1\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n3-1\r\n$1\r\nc\r\n$1\r\n3\r\n", b"$3\r\n3-1\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n4-1\r\n$1\r\nd\r\n$1\r\n4\r\n", b"$3\r\n4-1\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n$1\r\ng\r\n$1\r\n0\r\n", b"+OK\r\n").await;
    c.expect(b"*7\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$1\r\ng\r\n$5\r\nalice\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n>\r\n", b"*1\r\n*2\r\n$1\r\ns\r\n*4\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n2-1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\nc\r\n$1\r\n3\r\n*2\r\n$3\r\n4-1\r\n*2\r\n$1\r\nd\r\n$1\r\n4\r\n").await;
    c.expect(b"*7\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\nbob\r\n$1\r\n0\r\n$3\r\n1-1\r\n$6\r\nJUSTID\r\n", b"*1\r\n$3\r\n1-1\r\n").await;
    c.expect(b"*6\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\nbob\r\n$1\r\n0\r\n$3\r\n2-1\r\n", b"*1\r\n*2\r\n$3\r\n2-1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n").await;
    c.expect(b"*10\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\nbob\r\n$1\r\n0\r\n$3\r\n2-1\r\n$10\r\nRETRYCOUNT\r\n$1\r\n7\r\n$4\r\nIDLE\r\n$1\r\n0\r\n", b"*1\r\n*2\r\n$3\r\n2-1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n").await;
    c.expect(b"*6\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\nbob\r\n$7\r\n1000000\r\n$3\r\n3-1\r\n", b"*0\r\n").await;
    c.expect(b"*7\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\nbob\r\n$1\r\n0\r\n$3\r\n9-9\r\n$5\r\nFORCE\r\n", b"*0\r\n").await;
    c.expect(b"*9\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$5\r\ncarol\r\n$1\r\n0\r\n$3\r\n9-9\r\n$3\r\n4-1\r\n$5\r\nFORCE\r\n$6\r\nJUSTID\r\n", b"*1\r\n$3\r\n4-1\r\n").await;
    c.expect(b"*7\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\nbob\r\n$1\r\n0\r\n$3\r\n1-1\r\n$3\r\nBAD\r\n", b"-ERR Unrecognized XCLAIM option 'BAD'\r\n").await;
    c.expect(b"*6\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\nbob\r\n$1\r\nx\r\n$3\r\n1-1\r\n", b"-ERR Invalid min-idle-time argument for XCLAIM\r\n").await;
    c.expect(b"*8\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\nbob\r\n$1\r\n0\r\n$3\r\n1-1\r\n$4\r\nIDLE\r\n$1\r\nx\r\n", b"-ERR Invalid IDLE option argument for XCLAIM\r\n").await;
    c.expect(b"*8\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\nbob\r\n$1\r\n0\r\n$3\r\n1-1\r\n$10\r\nRETRYCOUNT\r\n$1\r\nx\r\n", b"-ERR Invalid RETRYCOUNT option argument for XCLAIM\r\n").await;
    c.expect(b"*8\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\nbob\r\n$1\r\n0\r\n$3\r\n1-1\r\n$6\r\nLASTID\r\n$3\r\nbad\r\n", b"-ERR Invalid stream ID specified as stream command argument\r\n").await;
    c.expect(b"*6\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$3\r\nnog\r\n$3\r\nbob\r\n$1\r\n0\r\n$3\r\n1-1\r\n", b"-NOGROUP No such key 's' or consumer group 'nog'\r\n").await;
    c.expect(b"*6\r\n$6\r\nXCLAIM\r\n$5\r\nnokey\r\n$1\r\ng\r\n$3\r\nbob\r\n$1\r\n0\r\n$3\r\n1-1\r\n", b"-NOGROUP No such key 'nokey' or consumer group 'g'\r\n").await;
    c.expect(b"*3\r\n$4\r\nXDEL\r\n$1\r\ns\r\n$3\r\n3-1\r\n", b":1\r\n").await;
    c.expect(b"*6\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\nbob\r\n$1\r\n0\r\n$3\r\n3-1\r\n", b"*0\r\n").await;
    c.expect(b"*3\r\n$8\r\nXPENDING\r\n$1\r\ns\r\n$1\r\ng\r\n", b"*4\r\n:3\r\n$3\r\n1-1\r\n$3\r\n4-1\r\n*2\r\n*2\r\n$3\r\nbob\r\n$1\r\n2\r\n*2\r\n$5\r\ncarol\r\n$1\r\n1\r\n").await;
    c.expect(b"*6\r\n$10\r\nXAUTOCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\ndan\r\n$1\r\n0\r\n$1\r\n0\r\n", b"*3\r\n$3\r\n0-0\r\n*3\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n2-1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n4-1\r\n*2\r\n$1\r\nd\r\n$1\r\n4\r\n*0\r\n").await;
    c.expect(b"*8\r\n$10\r\nXAUTOCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\ndan\r\n$1\r\n0\r\n$1\r\n0\r\n$5\r\nCOUNT\r\n$1\r\n1\r\n", b"*3\r\n$3\r\n2-1\r\n*1\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*0\r\n").await;
    c.expect(b"*9\r\n$10\r\nXAUTOCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$4\r\nerin\r\n$1\r\n0\r\n$1\r\n0\r\n$5\r\nCOUNT\r\n$1\r\n1\r\n$6\r\nJUSTID\r\n", b"*3\r\n$3\r\n2-1\r\n*1\r\n$3\r\n1-1\r\n*0\r\n").await;
    c.expect(b"*9\r\n$10\r\nXAUTOCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$4\r\nerin\r\n$1\r\n0\r\n$4\r\n(1-1\r\n$5\r\nCOUNT\r\n$1\r\n1\r\n$6\r\nJUSTID\r\n", b"*3\r\n$3\r\n4-1\r\n*1\r\n$3\r\n2-1\r\n*0\r\n").await;
    c.expect(b"*8\r\n$10\r\nXAUTOCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$4\r\nerin\r\n$1\r\n0\r\n$1\r\n0\r\n$5\r\nCOUNT\r\n$1\r\n0\r\n", b"-ERR COUNT must be > 0\r\n").await;
    c.expect(b"*6\r\n$10\r\nXAUTOCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$4\r\nerin\r\n$1\r\nx\r\n$1\r\n0\r\n", b"-ERR Invalid min-idle-time argument for XAUTOCLAIM\r\n").await;
    c.expect(b"*6\r\n$10\r\nXAUTOCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$4\r\nerin\r\n$1\r\n0\r\n$3\r\nbad\r\n", b"-ERR Invalid stream ID specified as stream command argument\r\n").await;
    c.expect(b"*7\r\n$10\r\nXAUTOCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$4\r\nerin\r\n$1\r\n0\r\n$1\r\n0\r\n$3\r\nFOO\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*6\r\n$10\r\nXAUTOCLAIM\r\n$1\r\ns\r\n$3\r\nnog\r\n$4\r\nerin\r\n$1\r\n0\r\n$1\r\n0\r\n", b"-NOGROUP No such key 's' or consumer group 'nog'\r\n").await;
    c.expect(b"*6\r\n$10\r\nXAUTOCLAIM\r\n$5\r\nnokey\r\n$1\r\ng\r\n$4\r\nerin\r\n$1\r\n0\r\n$1\r\n0\r\n", b"-NOGROUP No such key 'nokey' or consumer group 'g'\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n5-1\r\n$1\r\ne\r\n$1\r\n5\r\n", b"$3\r\n5-1\r\n").await;
    c.expect(b"*7\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$1\r\ng\r\n$5\r\nalice\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n>\r\n", b"*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n5-1\r\n*2\r\n$1\r\ne\r\n$1\r\n5\r\n").await;
    c.expect(b"*3\r\n$4\r\nXDEL\r\n$1\r\ns\r\n$3\r\n5-1\r\n", b":1\r\n").await;
    c.expect(b"*6\r\n$10\r\nXAUTOCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\ndan\r\n$1\r\n0\r\n$1\r\n0\r\n", b"*3\r\n$3\r\n0-0\r\n*3\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n2-1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n*2\r\n$3\r\n4-1\r\n*2\r\n$1\r\nd\r\n$1\r\n4\r\n*1\r\n$3\r\n5-1\r\n").await;
    c.expect(b"*3\r\n$8\r\nXPENDING\r\n$1\r\ns\r\n$1\r\ng\r\n", b"*4\r\n:3\r\n$3\r\n1-1\r\n$3\r\n4-1\r\n*1\r\n*2\r\n$3\r\ndan\r\n$1\r\n3\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nSTREAM\r\n$1\r\ns\r\n", b"*20\r\n$6\r\nlength\r\n:3\r\n$15\r\nradix-tree-keys\r\n:1\r\n$16\r\nradix-tree-nodes\r\n:2\r\n$17\r\nlast-generated-id\r\n$3\r\n5-1\r\n$20\r\nmax-deleted-entry-id\r\n$3\r\n5-1\r\n$13\r\nentries-added\r\n:5\r\n$23\r\nrecorded-first-entry-id\r\n$3\r\n1-1\r\n$6\r\ngroups\r\n:1\r\n$11\r\nfirst-entry\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n$10\r\nlast-entry\r\n*2\r\n$3\r\n4-1\r\n*2\r\n$1\r\nd\r\n$1\r\n4\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n$2\r\ng9\r\n$1\r\n0\r\n", b"+OK\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n$2\r\ng8\r\n$1\r\n$\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$1\r\ns\r\n", b"*3\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:5\r\n$7\r\npending\r\n:3\r\n$17\r\nlast-delivered-id\r\n$3\r\n5-1\r\n$12\r\nentries-read\r\n:5\r\n$3\r\nlag\r\n:0\r\n*12\r\n$4\r\nname\r\n$2\r\ng8\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n5-1\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n:0\r\n*12\r\n$4\r\nname\r\n$2\r\ng9\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n$-1\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$5\r\nSETID\r\n$1\r\ns\r\n$2\r\ng9\r\n$3\r\n1-1\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$1\r\ns\r\n", b"*3\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:5\r\n$7\r\npending\r\n:3\r\n$17\r\nlast-delivered-id\r\n$3\r\n5-1\r\n$12\r\nentries-read\r\n:5\r\n$3\r\nlag\r\n:0\r\n*12\r\n$4\r\nname\r\n$2\r\ng8\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n5-1\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n:0\r\n*12\r\n$4\r\nname\r\n$2\r\ng9\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n1-1\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n$-1\r\n").await;
    c.expect(b"*7\r\n$6\r\nXSETID\r\n$1\r\ns\r\n$4\r\n50-0\r\n$12\r\nENTRIESADDED\r\n$3\r\n100\r\n$12\r\nMAXDELETEDID\r\n$3\r\n4-1\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$1\r\ns\r\n", b"*3\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:5\r\n$7\r\npending\r\n:3\r\n$17\r\nlast-delivered-id\r\n$3\r\n5-1\r\n$12\r\nentries-read\r\n:5\r\n$3\r\nlag\r\n:95\r\n*12\r\n$4\r\nname\r\n$2\r\ng8\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n5-1\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n$-1\r\n*12\r\n$4\r\nname\r\n$2\r\ng9\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n1-1\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n$-1\r\n").await;
    c.expect(b"*9\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$2\r\ng9\r\n$3\r\nzed\r\n$5\r\nCOUNT\r\n$1\r\n1\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n>\r\n", b"*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n2-1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$1\r\ns\r\n", b"*3\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:5\r\n$7\r\npending\r\n:3\r\n$17\r\nlast-delivered-id\r\n$3\r\n5-1\r\n$12\r\nentries-read\r\n:5\r\n$3\r\nlag\r\n:95\r\n*12\r\n$4\r\nname\r\n$2\r\ng8\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n5-1\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n$-1\r\n*12\r\n$4\r\nname\r\n$2\r\ng9\r\n$9\r\nconsumers\r\n:1\r\n$7\r\npending\r\n:1\r\n$17\r\nlast-delivered-id\r\n$3\r\n2-1\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n$-1\r\n").await;
    c.expect(b"*4\r\n$5\r\nXTRIM\r\n$1\r\ns\r\n$6\r\nMAXLEN\r\n$1\r\n0\r\n", b":3\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nSTREAM\r\n$1\r\ns\r\n", b"*20\r\n$6\r\nlength\r\n:0\r\n$15\r\nradix-tree-keys\r\n:0\r\n$16\r\nradix-tree-nodes\r\n:1\r\n$17\r\nlast-generated-id\r\n$4\r\n50-0\r\n$20\r\nmax-deleted-entry-id\r\n$3\r\n4-1\r\n$13\r\nentries-added\r\n:100\r\n$23\r\nrecorded-first-entry-id\r\n$3\r\n0-0\r\n$6\r\ngroups\r\n:3\r\n$11\r\nfirst-entry\r\n$-1\r\n$10\r\nlast-entry\r\n$-1\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$1\r\ns\r\n", b"*3\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:5\r\n$7\r\npending\r\n:3\r\n$17\r\nlast-delivered-id\r\n$3\r\n5-1\r\n$12\r\nentries-read\r\n:5\r\n$3\r\nlag\r\n:95\r\n*12\r\n$4\r\nname\r\n$2\r\ng8\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n5-1\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n:0\r\n*12\r\n$4\r\nname\r\n$2\r\ng9\r\n$9\r\nconsumers\r\n:1\r\n$7\r\npending\r\n:1\r\n$17\r\nlast-delivered-id\r\n$3\r\n2-1\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n:0\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$2\r\n60\r\n$1\r\na\r\n$1\r\nb\r\n", b"$4\r\n60-0\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$1\r\ns\r\n", b"*3\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:5\r\n$7\r\npending\r\n:3\r\n$17\r\nlast-delivered-id\r\n$3\r\n5-1\r\n$12\r\nentries-read\r\n:5\r\n$3\r\nlag\r\n:96\r\n*12\r\n$4\r\nname\r\n$2\r\ng8\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n5-1\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n:1\r\n*12\r\n$4\r\nname\r\n$2\r\ng9\r\n$9\r\nconsumers\r\n:1\r\n$7\r\npending\r\n:1\r\n$17\r\nlast-delivered-id\r\n$3\r\n2-1\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n:1\r\n").await;
    c.expect(b"*3\r\n$4\r\nXDEL\r\n$1\r\ns\r\n$4\r\n60-0\r\n", b":1\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nSTREAM\r\n$1\r\ns\r\n", b"*20\r\n$6\r\nlength\r\n:0\r\n$15\r\nradix-tree-keys\r\n:0\r\n$16\r\nradix-tree-nodes\r\n:1\r\n$17\r\nlast-generated-id\r\n$4\r\n60-0\r\n$20\r\nmax-deleted-entry-id\r\n$4\r\n60-0\r\n$13\r\nentries-added\r\n:101\r\n$23\r\nrecorded-first-entry-id\r\n$3\r\n0-0\r\n$6\r\ngroups\r\n:3\r\n$11\r\nfirst-entry\r\n$-1\r\n$10\r\nlast-entry\r\n$-1\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn stream_keyspace_events() {
    // Class `t` events with Redis' names, one per change (xadd then xtrim for a trimming XADD,
    // xgroup-createconsumer from XREADGROUP/XCLAIM/XAUTOCLAIM), `new` for created keys; the
    // pmessages a KEA subscriber received from redis-server 7.0.15 for the same commands.
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let mut sub = server.client().await;
    c.expect(b"*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$22\r\nnotify-keyspace-events\r\n$3\r\nKEA\r\n", b"+OK\r\n").await;
    sub.expect(b"*2\r\n$10\r\nPSUBSCRIBE\r\n$10\r\n__key*__:*\r\n", b"*3\r\n$10\r\npsubscribe\r\n$10\r\n__key*__:*\r\n:1\r\n").await;
    let commands: &[&[u8]] = &[
        b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n1-0\r\n$1\r\na\r\n$1\r\n1\r\n",
        b"*7\r\n$4\r\nXADD\r\n$1\r\ns\r\n$6\r\nMAXLEN\r\n$1\r\n1\r\n$3\r\n2-0\r\n$1\r\nb\r\n$1\r\n2\r\n",
        b"*3\r\n$4\r\nXDEL\r\n$1\r\ns\r\n$3\r\n2-0\r\n",
        b"*3\r\n$4\r\nXDEL\r\n$1\r\ns\r\n$3\r\n2-0\r\n",
        b"*3\r\n$6\r\nXSETID\r\n$1\r\ns\r\n$3\r\n5-0\r\n",
        b"*4\r\n$5\r\nXTRIM\r\n$1\r\ns\r\n$6\r\nMAXLEN\r\n$1\r\n0\r\n",
        b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n6-0\r\n$1\r\nc\r\n$1\r\n3\r\n",
        b"*4\r\n$5\r\nXTRIM\r\n$1\r\ns\r\n$6\r\nMAXLEN\r\n$1\r\n0\r\n",
        b"*5\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n$1\r\ng\r\n$1\r\n0\r\n",
        b"*6\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\nm\r\n$1\r\ng\r\n$1\r\n$\r\n$8\r\nMKSTREAM\r\n",
        b"*5\r\n$6\r\nXGROUP\r\n$5\r\nSETID\r\n$1\r\ns\r\n$1\r\ng\r\n$1\r\n0\r\n",
        b"*5\r\n$6\r\nXGROUP\r\n$14\r\nCREATECONSUMER\r\n$1\r\ns\r\n$1\r\ng\r\n$2\r\nc1\r\n",
        b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n7-0\r\n$1\r\nd\r\n$1\r\n4\r\n",
        b"*7\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$1\r\ng\r\n$2\r\nc2\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n>\r\n",
        b"*6\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$2\r\nc3\r\n$1\r\n0\r\n$3\r\n7-0\r\n",
        b"*6\r\n$10\r\nXAUTOCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$2\r\nc4\r\n$1\r\n0\r\n$1\r\n0\r\n",
        b"*4\r\n$4\r\nXACK\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\n7-0\r\n",
        b"*5\r\n$6\r\nXGROUP\r\n$11\r\nDELCONSUMER\r\n$1\r\ns\r\n$1\r\ng\r\n$2\r\nc1\r\n",
        b"*4\r\n$6\r\nXGROUP\r\n$7\r\nDESTROY\r\n$1\r\ns\r\n$1\r\ng\r\n",
        b"*2\r\n$3\r\nDEL\r\n$1\r\ns\r\n",
        b"*1\r\n$4\r\nPING\r\n",
    ];
    for command in commands {
        c.send(command).await;
        c.next_reply().await;
    }
    let expected: &[&[u8]] = &[
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$4\r\nxadd\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$19\r\n__keyevent@0__:xadd\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$4\r\nxadd\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$19\r\n__keyevent@0__:xadd\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$5\r\nxtrim\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$20\r\n__keyevent@0__:xtrim\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$4\r\nxdel\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$19\r\n__keyevent@0__:xdel\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$6\r\nxsetid\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$21\r\n__keyevent@0__:xsetid\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$4\r\nxadd\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$19\r\n__keyevent@0__:xadd\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$5\r\nxtrim\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$20\r\n__keyevent@0__:xtrim\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$13\r\nxgroup-create\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$28\r\n__keyevent@0__:xgroup-create\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:m\r\n$13\r\nxgroup-create\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$28\r\n__keyevent@0__:xgroup-create\r\n$1\r\nm\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$12\r\nxgroup-setid\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$27\r\n__keyevent@0__:xgroup-setid\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$21\r\nxgroup-createconsumer\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$36\r\n__keyevent@0__:xgroup-createconsumer\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$4\r\nxadd\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$19\r\n__keyevent@0__:xadd\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$21\r\nxgroup-createconsumer\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$36\r\n__keyevent@0__:xgroup-createconsumer\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$21\r\nxgroup-createconsumer\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$36\r\n__keyevent@0__:xgroup-createconsumer\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$21\r\nxgroup-createconsumer\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$36\r\n__keyevent@0__:xgroup-createconsumer\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$18\r\nxgroup-delconsumer\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$33\r\n__keyevent@0__:xgroup-delconsumer\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$14\r\nxgroup-destroy\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$29\r\n__keyevent@0__:xgroup-destroy\r\n$1\r\ns\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$16\r\n__keyspace@0__:s\r\n$3\r\ndel\r\n",
        b"*4\r\n$8\r\npmessage\r\n$10\r\n__key*__:*\r\n$18\r\n__keyevent@0__:del\r\n$1\r\ns\r\n",
    ];
    for message in expected {
        assert_eq!(String::from_utf8_lossy(&sub.next_reply().await), String::from_utf8_lossy(message));
    }
    server.stop().await;
}

#[tokio::test]
async fn generic_commands_on_streams() {
    // TYPE, OBJECT ENCODING, COPY (groups and pending entries copied), RENAME, SCAN TYPE, an
    // expiry kept by XADD, WRONGTYPE from other types' commands: bytes as redis-server 7.0.15.
    // Then DUMP/RESTORE (Basalt's own payload: a stream comes back equal, DEBUG DIGEST-VALUE
    // the same, a damaged payload refused) and MEMORY USAGE (Basalt's own figure).
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"*1\r\n$8\r\nFLUSHALL\r\n", b"+OK\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n1-1\r\n$1\r\na\r\n$1\r\n1\r\n", b"$3\r\n1-1\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n2-1\r\n$1\r\nb\r\n$1\r\n2\r\n", b"$3\r\n2-1\r\n").await;
    c.expect(b"*5\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n$1\r\ng\r\n$1\r\n0\r\n", b"+OK\r\n").await;
    c.expect(b"*9\r\n$10\r\nXREADGROUP\r\n$5\r\nGROUP\r\n$1\r\ng\r\n$1\r\nc\r\n$5\r\nCOUNT\r\n$1\r\n1\r\n$7\r\nSTREAMS\r\n$1\r\ns\r\n$1\r\n>\r\n", b"*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n").await;
    c.expect(b"*2\r\n$4\r\nTYPE\r\n$1\r\ns\r\n", b"+stream\r\n").await;
    c.expect(b"*3\r\n$6\r\nOBJECT\r\n$8\r\nENCODING\r\n$1\r\ns\r\n", b"$6\r\nstream\r\n").await;
    c.expect(b"*3\r\n$4\r\nCOPY\r\n$1\r\ns\r\n$2\r\ns2\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$6\r\nXRANGE\r\n$2\r\ns2\r\n$1\r\n-\r\n$1\r\n+\r\n", b"*2\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$3\r\n2-1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$2\r\ns2\r\n", b"*1\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:1\r\n$7\r\npending\r\n:1\r\n$17\r\nlast-delivered-id\r\n$3\r\n1-1\r\n$12\r\nentries-read\r\n:1\r\n$3\r\nlag\r\n:1\r\n").await;
    c.expect(b"*3\r\n$8\r\nXPENDING\r\n$2\r\ns2\r\n$1\r\ng\r\n", b"*4\r\n:1\r\n$3\r\n1-1\r\n$3\r\n1-1\r\n*1\r\n*2\r\n$1\r\nc\r\n$1\r\n1\r\n").await;
    c.expect(b"*3\r\n$6\r\nRENAME\r\n$2\r\ns2\r\n$2\r\ns3\r\n", b"+OK\r\n").await;
    c.expect(b"*2\r\n$6\r\nEXISTS\r\n$2\r\ns2\r\n", b":0\r\n").await;
    c.expect(b"*3\r\n$5\r\nXINFO\r\n$6\r\nGROUPS\r\n$2\r\ns3\r\n", b"*1\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:1\r\n$7\r\npending\r\n:1\r\n$17\r\nlast-delivered-id\r\n$3\r\n1-1\r\n$12\r\nentries-read\r\n:1\r\n$3\r\nlag\r\n:1\r\n").await;
    // SCAN's order is the shards' (seeded at random per process), as Redis' is its table's.
    let scanned = c.call(&[b"SCAN", b"0", b"TYPE", b"stream"]).await;
    assert!(
        [&b"*2\r\n$1\r\n0\r\n*2\r\n$2\r\ns3\r\n$1\r\ns\r\n"[..], b"*2\r\n$1\r\n0\r\n*2\r\n$1\r\ns\r\n$2\r\ns3\r\n"].contains(&&scanned[..]),
        "SCAN TYPE stream: {}",
        String::from_utf8_lossy(&scanned)
    );
    c.expect(b"*3\r\n$6\r\nEXPIRE\r\n$2\r\ns3\r\n$4\r\n1000\r\n", b":1\r\n").await;
    c.expect(b"*5\r\n$4\r\nXADD\r\n$2\r\ns3\r\n$3\r\n3-1\r\n$1\r\nc\r\n$1\r\n3\r\n", b"$3\r\n3-1\r\n").await;
    c.expect(b"*2\r\n$3\r\nTTL\r\n$2\r\ns3\r\n", b":1000\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$4\r\nCOPY\r\n$1\r\ns\r\n$1\r\nk\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$4\r\nCOPY\r\n$1\r\ns\r\n$1\r\nk\r\n$7\r\nREPLACE\r\n", b":1\r\n").await;
    c.expect(b"*2\r\n$4\r\nTYPE\r\n$1\r\nk\r\n", b"+stream\r\n").await;
    c.expect(b"*2\r\n$4\r\nXLEN\r\n$1\r\nk\r\n", b":2\r\n").await;
    c.expect(b"*2\r\n$4\r\nSORT\r\n$1\r\ns\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$5\r\nLPUSH\r\n$1\r\ns\r\n$1\r\nx\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*2\r\n$3\r\nGET\r\n$1\r\ns\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*4\r\n$4\r\nHSET\r\n$1\r\ns\r\n$1\r\nf\r\n$1\r\nv\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    let dump = c.call(&[b"DUMP", b"s"]).await;
    let payload = &dump[dump.iter().position(|&b| b == b'\n').unwrap() + 1..dump.len() - 2];
    assert_eq!(c.call(&[b"RESTORE", b"r", b"0", payload]).await, b"+OK\r\n");
    let digests = c.call(&[b"DEBUG", b"DIGEST-VALUE", b"s", b"r"]).await;
    let text = String::from_utf8(digests).unwrap();
    let parts: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(parts[1], parts[2], "{text}");
    assert_ne!(parts[1], format!("+{}", "0".repeat(40)));
    assert_eq!(c.call(&[b"XINFO", b"GROUPS", b"r"]).await, c.call(&[b"XINFO", b"GROUPS", b"s"]).await);
    for at in [1, payload.len() / 2, payload.len() - 1] {
        let mut bad = payload.to_vec();
        bad[at] ^= 0x20;
        assert!(c.call(&[b"RESTORE", b"bad", b"0", &bad]).await.starts_with(b"-ERR"), "flip at {at}");
    }
    let usage = c.call(&[b"MEMORY", b"USAGE", b"s"]).await;
    assert!(usage.starts_with(b":") && usage.len() > 4, "{}", String::from_utf8_lossy(&usage));
    server.stop().await;
}
