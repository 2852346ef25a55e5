//! The sorted-set commands of issue 18 at the wire: exact bytes, each the reply redis-server 7.0.15 gave to the same request (RESP2, then RESP3).

mod common;

use common::TestServer;

#[tokio::test]
async fn sorted_set_commands_resp2() {
    // Ranges, ranks, pops, algebra and removals, with their errors.
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"*12\r\n$4\r\nZADD\r\n$1\r\nz\r\n$1\r\n1\r\n$1\r\na\r\n$1\r\n2\r\n$1\r\nb\r\n$1\r\n3\r\n$1\r\nc\r\n$1\r\n4\r\n$1\r\nd\r\n$1\r\n5\r\n$1\r\ne\r\n", b":5\r\n").await;
    c.expect(b"*4\r\n$9\r\nZREVRANGE\r\n$1\r\nz\r\n$1\r\n0\r\n$2\r\n-1\r\n", b"*5\r\n$1\r\ne\r\n$1\r\nd\r\n$1\r\nc\r\n$1\r\nb\r\n$1\r\na\r\n").await;
    c.expect(b"*5\r\n$9\r\nZREVRANGE\r\n$1\r\nz\r\n$1\r\n0\r\n$1\r\n1\r\n$10\r\nWITHSCORES\r\n", b"*4\r\n$1\r\ne\r\n$1\r\n5\r\n$1\r\nd\r\n$1\r\n4\r\n").await;
    c.expect(b"*7\r\n$9\r\nZREVRANGE\r\n$1\r\nz\r\n$1\r\n0\r\n$1\r\n1\r\n$5\r\nLIMIT\r\n$1\r\n0\r\n$1\r\n1\r\n", b"-ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX\r\n").await;
    c.expect(b"*5\r\n$9\r\nZREVRANGE\r\n$1\r\nz\r\n$1\r\n0\r\n$1\r\n1\r\n$3\r\nfoo\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*5\r\n$16\r\nZREVRANGEBYSCORE\r\n$1\r\nz\r\n$1\r\n4\r\n$2\r\n(2\r\n$10\r\nWITHSCORES\r\n", b"*4\r\n$1\r\nd\r\n$1\r\n4\r\n$1\r\nc\r\n$1\r\n3\r\n").await;
    c.expect(b"*7\r\n$16\r\nZREVRANGEBYSCORE\r\n$1\r\nz\r\n$4\r\n+inf\r\n$4\r\n-inf\r\n$5\r\nLIMIT\r\n$1\r\n1\r\n$1\r\n2\r\n", b"*2\r\n$1\r\nd\r\n$1\r\nc\r\n").await;
    c.expect(b"*4\r\n$16\r\nZREVRANGEBYSCORE\r\n$1\r\nz\r\n$1\r\nx\r\n$1\r\n1\r\n", b"-ERR min or max is not a float\r\n").await;
    c.expect(b"*4\r\n$11\r\nZRANGEBYLEX\r\n$1\r\nz\r\n$1\r\n-\r\n$1\r\n+\r\n", b"*5\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\nd\r\n$1\r\ne\r\n").await;
    c.expect(b"*5\r\n$11\r\nZRANGEBYLEX\r\n$1\r\nz\r\n$1\r\n-\r\n$1\r\n+\r\n$10\r\nWITHSCORES\r\n", b"-ERR syntax error, WITHSCORES not supported in combination with BYLEX\r\n").await;
    c.expect(b"*7\r\n$14\r\nZREVRANGEBYLEX\r\n$1\r\nz\r\n$1\r\n+\r\n$1\r\n-\r\n$5\r\nLIMIT\r\n$1\r\n0\r\n$1\r\n2\r\n", b"*2\r\n$1\r\ne\r\n$1\r\nd\r\n").await;
    c.expect(b"*4\r\n$11\r\nZRANGEBYLEX\r\n$1\r\nz\r\n$1\r\na\r\n$1\r\nb\r\n", b"-ERR min or max not valid string range item\r\n").await;
    c.expect(b"*3\r\n$5\r\nZRANK\r\n$1\r\nz\r\n$1\r\nc\r\n", b":2\r\n").await;
    c.expect(b"*3\r\n$8\r\nZREVRANK\r\n$1\r\nz\r\n$1\r\nc\r\n", b":2\r\n").await;
    c.expect(b"*3\r\n$5\r\nZRANK\r\n$1\r\nz\r\n$2\r\nzz\r\n", b"$-1\r\n").await;
    c.expect(b"*3\r\n$5\r\nZRANK\r\n$5\r\nnokey\r\n$1\r\na\r\n", b"$-1\r\n").await;
    c.expect(b"*5\r\n$7\r\nZMSCORE\r\n$1\r\nz\r\n$1\r\na\r\n$2\r\nzz\r\n$1\r\ne\r\n", b"*3\r\n$1\r\n1\r\n$-1\r\n$1\r\n5\r\n").await;
    c.expect(b"*3\r\n$7\r\nZMSCORE\r\n$5\r\nnokey\r\n$1\r\na\r\n", b"*1\r\n$-1\r\n").await;
    c.expect(b"*5\r\n$11\r\nZRANGESTORE\r\n$3\r\ndst\r\n$1\r\nz\r\n$1\r\n1\r\n$1\r\n3\r\n", b":3\r\n").await;
    c.expect(b"*5\r\n$6\r\nZRANGE\r\n$3\r\ndst\r\n$1\r\n0\r\n$2\r\n-1\r\n$10\r\nWITHSCORES\r\n", b"*6\r\n$1\r\nb\r\n$1\r\n2\r\n$1\r\nc\r\n$1\r\n3\r\n$1\r\nd\r\n$1\r\n4\r\n").await;
    c.expect(b"*10\r\n$11\r\nZRANGESTORE\r\n$3\r\ndst\r\n$1\r\nz\r\n$1\r\n5\r\n$1\r\n1\r\n$7\r\nBYSCORE\r\n$3\r\nREV\r\n$5\r\nLIMIT\r\n$1\r\n0\r\n$1\r\n2\r\n", b":2\r\n").await;
    c.expect(b"*5\r\n$6\r\nZRANGE\r\n$3\r\ndst\r\n$1\r\n0\r\n$2\r\n-1\r\n$10\r\nWITHSCORES\r\n", b"*4\r\n$1\r\nd\r\n$1\r\n4\r\n$1\r\ne\r\n$1\r\n5\r\n").await;
    c.expect(b"*5\r\n$11\r\nZRANGESTORE\r\n$3\r\ndst\r\n$1\r\nz\r\n$2\r\n10\r\n$2\r\n20\r\n", b":0\r\n").await;
    c.expect(b"*2\r\n$6\r\nEXISTS\r\n$3\r\ndst\r\n", b":0\r\n").await;
    c.expect(b"*6\r\n$11\r\nZRANGESTORE\r\n$3\r\ndst\r\n$1\r\nz\r\n$1\r\n0\r\n$1\r\n1\r\n$10\r\nWITHSCORES\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*2\r\n$7\r\nZPOPMIN\r\n$1\r\nz\r\n", b"*2\r\n$1\r\na\r\n$1\r\n1\r\n").await;
    c.expect(b"*3\r\n$7\r\nZPOPMAX\r\n$1\r\nz\r\n$1\r\n2\r\n", b"*4\r\n$1\r\ne\r\n$1\r\n5\r\n$1\r\nd\r\n$1\r\n4\r\n").await;
    c.expect(b"*3\r\n$7\r\nZPOPMIN\r\n$1\r\nz\r\n$1\r\n0\r\n", b"*0\r\n").await;
    c.expect(b"*3\r\n$7\r\nZPOPMIN\r\n$1\r\nz\r\n$2\r\n-1\r\n", b"-ERR value is out of range, must be positive\r\n").await;
    c.expect(b"*4\r\n$7\r\nZPOPMIN\r\n$1\r\nz\r\n$1\r\n1\r\n$1\r\n2\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*2\r\n$7\r\nZPOPMIN\r\n$5\r\nnokey\r\n", b"*0\r\n").await;
    c.expect(b"*3\r\n$7\r\nZPOPMIN\r\n$5\r\nnokey\r\n$1\r\n0\r\n", b"*0\r\n").await;
    c.expect(b"*12\r\n$4\r\nZADD\r\n$1\r\nz\r\n$1\r\n1\r\n$1\r\na\r\n$1\r\n2\r\n$1\r\nb\r\n$1\r\n3\r\n$1\r\nc\r\n$1\r\n4\r\n$1\r\nd\r\n$1\r\n5\r\n$1\r\ne\r\n", b":3\r\n").await;
    c.expect(b"*4\r\n$5\r\nZMPOP\r\n$1\r\n1\r\n$1\r\nz\r\n$3\r\nMIN\r\n", b"*2\r\n$1\r\nz\r\n*1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n").await;
    c.expect(b"*7\r\n$5\r\nZMPOP\r\n$1\r\n2\r\n$5\r\nnokey\r\n$1\r\nz\r\n$3\r\nMAX\r\n$5\r\nCOUNT\r\n$1\r\n2\r\n", b"*2\r\n$1\r\nz\r\n*2\r\n*2\r\n$1\r\ne\r\n$1\r\n5\r\n*2\r\n$1\r\nd\r\n$1\r\n4\r\n").await;
    c.expect(b"*4\r\n$5\r\nZMPOP\r\n$1\r\n1\r\n$5\r\nnokey\r\n$3\r\nMIN\r\n", b"*-1\r\n").await;
    c.expect(b"*4\r\n$5\r\nZMPOP\r\n$1\r\n0\r\n$1\r\nz\r\n$3\r\nMIN\r\n", b"-ERR numkeys should be greater than 0\r\n").await;
    c.expect(b"*4\r\n$5\r\nZMPOP\r\n$1\r\nx\r\n$1\r\nz\r\n$3\r\nMIN\r\n", b"-ERR numkeys should be greater than 0\r\n").await;
    c.expect(b"*6\r\n$5\r\nZMPOP\r\n$1\r\n1\r\n$1\r\nz\r\n$3\r\nMIN\r\n$5\r\nCOUNT\r\n$1\r\n0\r\n", b"-ERR count should be greater than 0\r\n").await;
    c.expect(b"*6\r\n$5\r\nZMPOP\r\n$1\r\n1\r\n$1\r\nz\r\n$3\r\nMIN\r\n$5\r\nCOUNT\r\n$2\r\n-1\r\n", b"-ERR count should be greater than 0\r\n").await;
    c.expect(b"*4\r\n$5\r\nZMPOP\r\n$1\r\n1\r\n$1\r\nz\r\n$6\r\nMIDDLE\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*4\r\n$5\r\nZMPOP\r\n$1\r\n2\r\n$1\r\nz\r\n$3\r\nMIN\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*8\r\n$5\r\nZMPOP\r\n$1\r\n1\r\n$1\r\nz\r\n$3\r\nMIN\r\n$5\r\nCOUNT\r\n$1\r\n1\r\n$5\r\nCOUNT\r\n$1\r\n2\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*8\r\n$4\r\nZADD\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nx\r\n$1\r\n2\r\n$1\r\ny\r\n$1\r\n3\r\n$1\r\nz\r\n", b":3\r\n").await;
    c.expect(b"*8\r\n$4\r\nZADD\r\n$1\r\nb\r\n$2\r\n10\r\n$1\r\ny\r\n$2\r\n20\r\n$1\r\nz\r\n$2\r\n30\r\n$1\r\nw\r\n", b":3\r\n").await;
    c.expect(b"*4\r\n$4\r\nSADD\r\n$1\r\ns\r\n$1\r\nx\r\n$1\r\nw\r\n", b":2\r\n").await;
    c.expect(b"*4\r\n$6\r\nZUNION\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n", b"*4\r\n$1\r\nx\r\n$1\r\ny\r\n$1\r\nz\r\n$1\r\nw\r\n").await;
    c.expect(b"*5\r\n$6\r\nZUNION\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$10\r\nWITHSCORES\r\n", b"*8\r\n$1\r\nx\r\n$1\r\n1\r\n$1\r\ny\r\n$2\r\n12\r\n$1\r\nz\r\n$2\r\n23\r\n$1\r\nw\r\n$2\r\n30\r\n").await;
    c.expect(b"*10\r\n$6\r\nZUNION\r\n$1\r\n3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\ns\r\n$7\r\nWEIGHTS\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n$10\r\nWITHSCORES\r\n", b"*8\r\n$1\r\nx\r\n$1\r\n4\r\n$1\r\ny\r\n$2\r\n22\r\n$1\r\nz\r\n$2\r\n43\r\n$1\r\nw\r\n$2\r\n63\r\n").await;
    c.expect(b"*7\r\n$6\r\nZUNION\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$9\r\nAGGREGATE\r\n$3\r\nMAX\r\n$10\r\nWITHSCORES\r\n", b"*8\r\n$1\r\nx\r\n$1\r\n1\r\n$1\r\ny\r\n$2\r\n10\r\n$1\r\nz\r\n$2\r\n20\r\n$1\r\nw\r\n$2\r\n30\r\n").await;
    c.expect(b"*7\r\n$6\r\nZINTER\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$9\r\nAGGREGATE\r\n$3\r\nMIN\r\n$10\r\nWITHSCORES\r\n", b"*4\r\n$1\r\ny\r\n$1\r\n2\r\n$1\r\nz\r\n$1\r\n3\r\n").await;
    c.expect(b"*7\r\n$6\r\nZINTER\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$7\r\nWEIGHTS\r\n$1\r\n1\r\n$1\r\nx\r\n", b"-ERR weight value is not a float\r\n").await;
    c.expect(b"*5\r\n$5\r\nZDIFF\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$10\r\nWITHSCORES\r\n", b"*2\r\n$1\r\nx\r\n$1\r\n1\r\n").await;
    c.expect(b"*7\r\n$5\r\nZDIFF\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$7\r\nWEIGHTS\r\n$1\r\n1\r\n$1\r\n1\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*5\r\n$11\r\nZUNIONSTORE\r\n$3\r\nout\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n", b":4\r\n").await;
    c.expect(b"*5\r\n$6\r\nZRANGE\r\n$3\r\nout\r\n$1\r\n0\r\n$2\r\n-1\r\n$10\r\nWITHSCORES\r\n", b"*8\r\n$1\r\nx\r\n$1\r\n1\r\n$1\r\ny\r\n$2\r\n12\r\n$1\r\nz\r\n$2\r\n23\r\n$1\r\nw\r\n$2\r\n30\r\n").await;
    c.expect(b"*5\r\n$11\r\nZINTERSTORE\r\n$3\r\nout\r\n$1\r\n2\r\n$1\r\na\r\n$5\r\nnokey\r\n", b":0\r\n").await;
    c.expect(b"*2\r\n$6\r\nEXISTS\r\n$3\r\nout\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$10\r\nZDIFFSTORE\r\n$3\r\nout\r\n$1\r\n1\r\n$1\r\na\r\n", b":3\r\n").await;
    c.expect(b"*5\r\n$10\r\nZDIFFSTORE\r\n$3\r\nout\r\n$1\r\n1\r\n$1\r\na\r\n$10\r\nWITHSCORES\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*4\r\n$10\r\nZINTERCARD\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n", b":2\r\n").await;
    c.expect(b"*6\r\n$10\r\nZINTERCARD\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$5\r\nLIMIT\r\n$1\r\n1\r\n", b":1\r\n").await;
    c.expect(b"*6\r\n$10\r\nZINTERCARD\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$5\r\nLIMIT\r\n$2\r\n-1\r\n", b"-ERR LIMIT can't be negative\r\n").await;
    c.expect(b"*3\r\n$10\r\nZINTERCARD\r\n$1\r\n0\r\n$1\r\na\r\n", b"-ERR at least 1 input key is needed for 'zintercard' command\r\n").await;
    c.expect(b"*4\r\n$10\r\nZINTERCARD\r\n$1\r\n3\r\n$1\r\na\r\n$1\r\nb\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*3\r\n$6\r\nZUNION\r\n$1\r\n0\r\n$1\r\na\r\n", b"-ERR at least 1 input key is needed for 'zunion' command\r\n").await;
    c.expect(b"*4\r\n$11\r\nZUNIONSTORE\r\n$3\r\nout\r\n$1\r\n0\r\n$1\r\na\r\n", b"-ERR at least 1 input key is needed for 'zunionstore' command\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$3\r\nstr\r\n$1\r\nx\r\n", b"+OK\r\n").await;
    c.expect(b"*4\r\n$6\r\nZUNION\r\n$1\r\n2\r\n$1\r\na\r\n$3\r\nstr\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*5\r\n$6\r\nZUNION\r\n$1\r\n2\r\n$1\r\na\r\n$3\r\nstr\r\n$6\r\nBADOPT\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*4\r\n$4\r\nZADD\r\n$3\r\ninf\r\n$1\r\n1\r\n$1\r\na\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$4\r\nZADD\r\n$4\r\nninf\r\n$1\r\n1\r\n$1\r\na\r\n", b":1\r\n").await;
    c.expect(b"*8\r\n$11\r\nZUNIONSTORE\r\n$1\r\nr\r\n$1\r\n2\r\n$3\r\ninf\r\n$4\r\nninf\r\n$7\r\nWEIGHTS\r\n$4\r\n+inf\r\n$4\r\n-inf\r\n", b":1\r\n").await;
    c.expect(b"*5\r\n$6\r\nZRANGE\r\n$1\r\nr\r\n$1\r\n0\r\n$2\r\n-1\r\n$10\r\nWITHSCORES\r\n", b"*2\r\n$1\r\na\r\n$1\r\n0\r\n").await;
    c.expect(b"*8\r\n$11\r\nZUNIONSTORE\r\n$1\r\nr\r\n$1\r\n2\r\n$3\r\ninf\r\n$4\r\nninf\r\n$7\r\nWEIGHTS\r\n$1\r\n0\r\n$4\r\n+inf\r\n", b":1\r\n").await;
    c.expect(b"*5\r\n$6\r\nZRANGE\r\n$1\r\nr\r\n$1\r\n0\r\n$2\r\n-1\r\n$10\r\nWITHSCORES\r\n", b"*2\r\n$1\r\na\r\n$3\r\ninf\r\n").await;
    c.expect(b"*4\r\n$16\r\nZREMRANGEBYSCORE\r\n$1\r\nb\r\n$2\r\n10\r\n$3\r\n(30\r\n", b":2\r\n").await;
    c.expect(b"*5\r\n$6\r\nZRANGE\r\n$1\r\nb\r\n$1\r\n0\r\n$2\r\n-1\r\n$10\r\nWITHSCORES\r\n", b"*2\r\n$1\r\nw\r\n$2\r\n30\r\n").await;
    c.expect(b"*4\r\n$15\r\nZREMRANGEBYRANK\r\n$1\r\na\r\n$1\r\n0\r\n$1\r\n0\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$14\r\nZREMRANGEBYLEX\r\n$1\r\na\r\n$1\r\n-\r\n$1\r\n+\r\n", b":2\r\n").await;
    c.expect(b"*2\r\n$6\r\nEXISTS\r\n$1\r\na\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$14\r\nZREMRANGEBYLEX\r\n$1\r\na\r\n$1\r\nx\r\n$1\r\ny\r\n", b"-ERR min or max not valid string range item\r\n").await;
    c.expect(b"*4\r\n$16\r\nZREMRANGEBYSCORE\r\n$1\r\na\r\n$1\r\nx\r\n$1\r\ny\r\n", b"-ERR min or max is not a float\r\n").await;
    c.expect(b"*4\r\n$16\r\nZREMRANGEBYSCORE\r\n$3\r\nstr\r\n$1\r\n1\r\n$1\r\n2\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*8\r\n$4\r\nZADD\r\n$2\r\nr2\r\n$1\r\n1\r\n$1\r\na\r\n$1\r\n2\r\n$1\r\nb\r\n$1\r\n3\r\n$1\r\nc\r\n", b":3\r\n").await;
    c.expect(b"*4\r\n$4\r\nZADD\r\n$3\r\none\r\n$1\r\n7\r\n$4\r\nonly\r\n", b":1\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn sorted_set_commands_resp3() {
    // The same in RESP3 (doubles, pairs).
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.send(b"HELLO 3\r\n").await;
    c.read_reply().await;
    c.expect(b"*12\r\n$4\r\nZADD\r\n$1\r\nz\r\n$1\r\n1\r\n$1\r\na\r\n$1\r\n2\r\n$1\r\nb\r\n$1\r\n3\r\n$1\r\nc\r\n$1\r\n4\r\n$1\r\nd\r\n$1\r\n5\r\n$1\r\ne\r\n", b":5\r\n").await;
    c.expect(b"*4\r\n$9\r\nZREVRANGE\r\n$1\r\nz\r\n$1\r\n0\r\n$2\r\n-1\r\n", b"*5\r\n$1\r\ne\r\n$1\r\nd\r\n$1\r\nc\r\n$1\r\nb\r\n$1\r\na\r\n").await;
    c.expect(b"*5\r\n$9\r\nZREVRANGE\r\n$1\r\nz\r\n$1\r\n0\r\n$1\r\n1\r\n$10\r\nWITHSCORES\r\n", b"*2\r\n*2\r\n$1\r\ne\r\n,5\r\n*2\r\n$1\r\nd\r\n,4\r\n").await;
    c.expect(b"*7\r\n$9\r\nZREVRANGE\r\n$1\r\nz\r\n$1\r\n0\r\n$1\r\n1\r\n$5\r\nLIMIT\r\n$1\r\n0\r\n$1\r\n1\r\n", b"-ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX\r\n").await;
    c.expect(b"*5\r\n$9\r\nZREVRANGE\r\n$1\r\nz\r\n$1\r\n0\r\n$1\r\n1\r\n$3\r\nfoo\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*5\r\n$16\r\nZREVRANGEBYSCORE\r\n$1\r\nz\r\n$1\r\n4\r\n$2\r\n(2\r\n$10\r\nWITHSCORES\r\n", b"*2\r\n*2\r\n$1\r\nd\r\n,4\r\n*2\r\n$1\r\nc\r\n,3\r\n").await;
    c.expect(b"*7\r\n$16\r\nZREVRANGEBYSCORE\r\n$1\r\nz\r\n$4\r\n+inf\r\n$4\r\n-inf\r\n$5\r\nLIMIT\r\n$1\r\n1\r\n$1\r\n2\r\n", b"*2\r\n$1\r\nd\r\n$1\r\nc\r\n").await;
    c.expect(b"*4\r\n$16\r\nZREVRANGEBYSCORE\r\n$1\r\nz\r\n$1\r\nx\r\n$1\r\n1\r\n", b"-ERR min or max is not a float\r\n").await;
    c.expect(b"*4\r\n$11\r\nZRANGEBYLEX\r\n$1\r\nz\r\n$1\r\n-\r\n$1\r\n+\r\n", b"*5\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\nd\r\n$1\r\ne\r\n").await;
    c.expect(b"*5\r\n$11\r\nZRANGEBYLEX\r\n$1\r\nz\r\n$1\r\n-\r\n$1\r\n+\r\n$10\r\nWITHSCORES\r\n", b"-ERR syntax error, WITHSCORES not supported in combination with BYLEX\r\n").await;
    c.expect(b"*7\r\n$14\r\nZREVRANGEBYLEX\r\n$1\r\nz\r\n$1\r\n+\r\n$1\r\n-\r\n$5\r\nLIMIT\r\n$1\r\n0\r\n$1\r\n2\r\n", b"*2\r\n$1\r\ne\r\n$1\r\nd\r\n").await;
    c.expect(b"*4\r\n$11\r\nZRANGEBYLEX\r\n$1\r\nz\r\n$1\r\na\r\n$1\r\nb\r\n", b"-ERR min or max not valid string range item\r\n").await;
    c.expect(b"*3\r\n$5\r\nZRANK\r\n$1\r\nz\r\n$1\r\nc\r\n", b":2\r\n").await;
    c.expect(b"*3\r\n$8\r\nZREVRANK\r\n$1\r\nz\r\n$1\r\nc\r\n", b":2\r\n").await;
    c.expect(b"*3\r\n$5\r\nZRANK\r\n$1\r\nz\r\n$2\r\nzz\r\n", b"_\r\n").await;
    c.expect(b"*3\r\n$5\r\nZRANK\r\n$5\r\nnokey\r\n$1\r\na\r\n", b"_\r\n").await;
    c.expect(b"*5\r\n$7\r\nZMSCORE\r\n$1\r\nz\r\n$1\r\na\r\n$2\r\nzz\r\n$1\r\ne\r\n", b"*3\r\n,1\r\n_\r\n,5\r\n").await;
    c.expect(b"*3\r\n$7\r\nZMSCORE\r\n$5\r\nnokey\r\n$1\r\na\r\n", b"*1\r\n_\r\n").await;
    c.expect(b"*5\r\n$11\r\nZRANGESTORE\r\n$3\r\ndst\r\n$1\r\nz\r\n$1\r\n1\r\n$1\r\n3\r\n", b":3\r\n").await;
    c.expect(b"*5\r\n$6\r\nZRANGE\r\n$3\r\ndst\r\n$1\r\n0\r\n$2\r\n-1\r\n$10\r\nWITHSCORES\r\n", b"*3\r\n*2\r\n$1\r\nb\r\n,2\r\n*2\r\n$1\r\nc\r\n,3\r\n*2\r\n$1\r\nd\r\n,4\r\n").await;
    c.expect(b"*10\r\n$11\r\nZRANGESTORE\r\n$3\r\ndst\r\n$1\r\nz\r\n$1\r\n5\r\n$1\r\n1\r\n$7\r\nBYSCORE\r\n$3\r\nREV\r\n$5\r\nLIMIT\r\n$1\r\n0\r\n$1\r\n2\r\n", b":2\r\n").await;
    c.expect(b"*5\r\n$6\r\nZRANGE\r\n$3\r\ndst\r\n$1\r\n0\r\n$2\r\n-1\r\n$10\r\nWITHSCORES\r\n", b"*2\r\n*2\r\n$1\r\nd\r\n,4\r\n*2\r\n$1\r\ne\r\n,5\r\n").await;
    c.expect(b"*5\r\n$11\r\nZRANGESTORE\r\n$3\r\ndst\r\n$1\r\nz\r\n$2\r\n10\r\n$2\r\n20\r\n", b":0\r\n").await;
    c.expect(b"*2\r\n$6\r\nEXISTS\r\n$3\r\ndst\r\n", b":0\r\n").await;
    c.expect(b"*6\r\n$11\r\nZRANGESTORE\r\n$3\r\ndst\r\n$1\r\nz\r\n$1\r\n0\r\n$1\r\n1\r\n$10\r\nWITHSCORES\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*2\r\n$7\r\nZPOPMIN\r\n$1\r\nz\r\n", b"*2\r\n$1\r\na\r\n,1\r\n").await;
    c.expect(b"*3\r\n$7\r\nZPOPMAX\r\n$1\r\nz\r\n$1\r\n2\r\n", b"*2\r\n*2\r\n$1\r\ne\r\n,5\r\n*2\r\n$1\r\nd\r\n,4\r\n").await;
    c.expect(b"*3\r\n$7\r\nZPOPMIN\r\n$1\r\nz\r\n$1\r\n0\r\n", b"*0\r\n").await;
    c.expect(b"*3\r\n$7\r\nZPOPMIN\r\n$1\r\nz\r\n$2\r\n-1\r\n", b"-ERR value is out of range, must be positive\r\n").await;
    c.expect(b"*4\r\n$7\r\nZPOPMIN\r\n$1\r\nz\r\n$1\r\n1\r\n$1\r\n2\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*2\r\n$7\r\nZPOPMIN\r\n$5\r\nnokey\r\n", b"*0\r\n").await;
    c.expect(b"*3\r\n$7\r\nZPOPMIN\r\n$5\r\nnokey\r\n$1\r\n0\r\n", b"*0\r\n").await;
    c.expect(b"*12\r\n$4\r\nZADD\r\n$1\r\nz\r\n$1\r\n1\r\n$1\r\na\r\n$1\r\n2\r\n$1\r\nb\r\n$1\r\n3\r\n$1\r\nc\r\n$1\r\n4\r\n$1\r\nd\r\n$1\r\n5\r\n$1\r\ne\r\n", b":3\r\n").await;
    c.expect(b"*4\r\n$5\r\nZMPOP\r\n$1\r\n1\r\n$1\r\nz\r\n$3\r\nMIN\r\n", b"*2\r\n$1\r\nz\r\n*1\r\n*2\r\n$1\r\na\r\n,1\r\n").await;
    c.expect(b"*7\r\n$5\r\nZMPOP\r\n$1\r\n2\r\n$5\r\nnokey\r\n$1\r\nz\r\n$3\r\nMAX\r\n$5\r\nCOUNT\r\n$1\r\n2\r\n", b"*2\r\n$1\r\nz\r\n*2\r\n*2\r\n$1\r\ne\r\n,5\r\n*2\r\n$1\r\nd\r\n,4\r\n").await;
    c.expect(b"*4\r\n$5\r\nZMPOP\r\n$1\r\n1\r\n$5\r\nnokey\r\n$3\r\nMIN\r\n", b"_\r\n").await;
    c.expect(b"*4\r\n$5\r\nZMPOP\r\n$1\r\n0\r\n$1\r\nz\r\n$3\r\nMIN\r\n", b"-ERR numkeys should be greater than 0\r\n").await;
    c.expect(b"*4\r\n$5\r\nZMPOP\r\n$1\r\nx\r\n$1\r\nz\r\n$3\r\nMIN\r\n", b"-ERR numkeys should be greater than 0\r\n").await;
    c.expect(b"*6\r\n$5\r\nZMPOP\r\n$1\r\n1\r\n$1\r\nz\r\n$3\r\nMIN\r\n$5\r\nCOUNT\r\n$1\r\n0\r\n", b"-ERR count should be greater than 0\r\n").await;
    c.expect(b"*6\r\n$5\r\nZMPOP\r\n$1\r\n1\r\n$1\r\nz\r\n$3\r\nMIN\r\n$5\r\nCOUNT\r\n$2\r\n-1\r\n", b"-ERR count should be greater than 0\r\n").await;
    c.expect(b"*4\r\n$5\r\nZMPOP\r\n$1\r\n1\r\n$1\r\nz\r\n$6\r\nMIDDLE\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*4\r\n$5\r\nZMPOP\r\n$1\r\n2\r\n$1\r\nz\r\n$3\r\nMIN\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*8\r\n$5\r\nZMPOP\r\n$1\r\n1\r\n$1\r\nz\r\n$3\r\nMIN\r\n$5\r\nCOUNT\r\n$1\r\n1\r\n$5\r\nCOUNT\r\n$1\r\n2\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*8\r\n$4\r\nZADD\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nx\r\n$1\r\n2\r\n$1\r\ny\r\n$1\r\n3\r\n$1\r\nz\r\n", b":3\r\n").await;
    c.expect(b"*8\r\n$4\r\nZADD\r\n$1\r\nb\r\n$2\r\n10\r\n$1\r\ny\r\n$2\r\n20\r\n$1\r\nz\r\n$2\r\n30\r\n$1\r\nw\r\n", b":3\r\n").await;
    c.expect(b"*4\r\n$4\r\nSADD\r\n$1\r\ns\r\n$1\r\nx\r\n$1\r\nw\r\n", b":2\r\n").await;
    c.expect(b"*4\r\n$6\r\nZUNION\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n", b"*4\r\n$1\r\nx\r\n$1\r\ny\r\n$1\r\nz\r\n$1\r\nw\r\n").await;
    c.expect(b"*5\r\n$6\r\nZUNION\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$10\r\nWITHSCORES\r\n", b"*4\r\n*2\r\n$1\r\nx\r\n,1\r\n*2\r\n$1\r\ny\r\n,12\r\n*2\r\n$1\r\nz\r\n,23\r\n*2\r\n$1\r\nw\r\n,30\r\n").await;
    c.expect(b"*10\r\n$6\r\nZUNION\r\n$1\r\n3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\ns\r\n$7\r\nWEIGHTS\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n$10\r\nWITHSCORES\r\n", b"*4\r\n*2\r\n$1\r\nx\r\n,4\r\n*2\r\n$1\r\ny\r\n,22\r\n*2\r\n$1\r\nz\r\n,43\r\n*2\r\n$1\r\nw\r\n,63\r\n").await;
    c.expect(b"*7\r\n$6\r\nZUNION\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$9\r\nAGGREGATE\r\n$3\r\nMAX\r\n$10\r\nWITHSCORES\r\n", b"*4\r\n*2\r\n$1\r\nx\r\n,1\r\n*2\r\n$1\r\ny\r\n,10\r\n*2\r\n$1\r\nz\r\n,20\r\n*2\r\n$1\r\nw\r\n,30\r\n").await;
    c.expect(b"*7\r\n$6\r\nZINTER\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$9\r\nAGGREGATE\r\n$3\r\nMIN\r\n$10\r\nWITHSCORES\r\n", b"*2\r\n*2\r\n$1\r\ny\r\n,2\r\n*2\r\n$1\r\nz\r\n,3\r\n").await;
    c.expect(b"*7\r\n$6\r\nZINTER\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$7\r\nWEIGHTS\r\n$1\r\n1\r\n$1\r\nx\r\n", b"-ERR weight value is not a float\r\n").await;
    c.expect(b"*5\r\n$5\r\nZDIFF\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$10\r\nWITHSCORES\r\n", b"*1\r\n*2\r\n$1\r\nx\r\n,1\r\n").await;
    c.expect(b"*7\r\n$5\r\nZDIFF\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$7\r\nWEIGHTS\r\n$1\r\n1\r\n$1\r\n1\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*5\r\n$11\r\nZUNIONSTORE\r\n$3\r\nout\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n", b":4\r\n").await;
    c.expect(b"*5\r\n$6\r\nZRANGE\r\n$3\r\nout\r\n$1\r\n0\r\n$2\r\n-1\r\n$10\r\nWITHSCORES\r\n", b"*4\r\n*2\r\n$1\r\nx\r\n,1\r\n*2\r\n$1\r\ny\r\n,12\r\n*2\r\n$1\r\nz\r\n,23\r\n*2\r\n$1\r\nw\r\n,30\r\n").await;
    c.expect(b"*5\r\n$11\r\nZINTERSTORE\r\n$3\r\nout\r\n$1\r\n2\r\n$1\r\na\r\n$5\r\nnokey\r\n", b":0\r\n").await;
    c.expect(b"*2\r\n$6\r\nEXISTS\r\n$3\r\nout\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$10\r\nZDIFFSTORE\r\n$3\r\nout\r\n$1\r\n1\r\n$1\r\na\r\n", b":3\r\n").await;
    c.expect(b"*5\r\n$10\r\nZDIFFSTORE\r\n$3\r\nout\r\n$1\r\n1\r\n$1\r\na\r\n$10\r\nWITHSCORES\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*4\r\n$10\r\nZINTERCARD\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n", b":2\r\n").await;
    c.expect(b"*6\r\n$10\r\nZINTERCARD\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$5\r\nLIMIT\r\n$1\r\n1\r\n", b":1\r\n").await;
    c.expect(b"*6\r\n$10\r\nZINTERCARD\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$5\r\nLIMIT\r\n$2\r\n-1\r\n", b"-ERR LIMIT can't be negative\r\n").await;
    c.expect(b"*3\r\n$10\r\nZINTERCARD\r\n$1\r\n0\r\n$1\r\na\r\n", b"-ERR at least 1 input key is needed for 'zintercard' command\r\n").await;
    c.expect(b"*4\r\n$10\r\nZINTERCARD\r\n$1\r\n3\r\n$1\r\na\r\n$1\r\nb\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*3\r\n$6\r\nZUNION\r\n$1\r\n0\r\n$1\r\na\r\n", b"-ERR at least 1 input key is needed for 'zunion' command\r\n").await;
    c.expect(b"*4\r\n$11\r\nZUNIONSTORE\r\n$3\r\nout\r\n$1\r\n0\r\n$1\r\na\r\n", b"-ERR at least 1 input key is needed for 'zunionstore' command\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$3\r\nstr\r\n$1\r\nx\r\n", b"+OK\r\n").await;
    c.expect(b"*4\r\n$6\r\nZUNION\r\n$1\r\n2\r\n$1\r\na\r\n$3\r\nstr\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*5\r\n$6\r\nZUNION\r\n$1\r\n2\r\n$1\r\na\r\n$3\r\nstr\r\n$6\r\nBADOPT\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*4\r\n$4\r\nZADD\r\n$3\r\ninf\r\n$1\r\n1\r\n$1\r\na\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$4\r\nZADD\r\n$4\r\nninf\r\n$1\r\n1\r\n$1\r\na\r\n", b":1\r\n").await;
    c.expect(b"*8\r\n$11\r\nZUNIONSTORE\r\n$1\r\nr\r\n$1\r\n2\r\n$3\r\ninf\r\n$4\r\nninf\r\n$7\r\nWEIGHTS\r\n$4\r\n+inf\r\n$4\r\n-inf\r\n", b":1\r\n").await;
    c.expect(b"*5\r\n$6\r\nZRANGE\r\n$1\r\nr\r\n$1\r\n0\r\n$2\r\n-1\r\n$10\r\nWITHSCORES\r\n", b"*1\r\n*2\r\n$1\r\na\r\n,0\r\n").await;
    c.expect(b"*8\r\n$11\r\nZUNIONSTORE\r\n$1\r\nr\r\n$1\r\n2\r\n$3\r\ninf\r\n$4\r\nninf\r\n$7\r\nWEIGHTS\r\n$1\r\n0\r\n$4\r\n+inf\r\n", b":1\r\n").await;
    c.expect(b"*5\r\n$6\r\nZRANGE\r\n$1\r\nr\r\n$1\r\n0\r\n$2\r\n-1\r\n$10\r\nWITHSCORES\r\n", b"*1\r\n*2\r\n$1\r\na\r\n,inf\r\n").await;
    c.expect(b"*4\r\n$16\r\nZREMRANGEBYSCORE\r\n$1\r\nb\r\n$2\r\n10\r\n$3\r\n(30\r\n", b":2\r\n").await;
    c.expect(b"*5\r\n$6\r\nZRANGE\r\n$1\r\nb\r\n$1\r\n0\r\n$2\r\n-1\r\n$10\r\nWITHSCORES\r\n", b"*1\r\n*2\r\n$1\r\nw\r\n,30\r\n").await;
    c.expect(b"*4\r\n$15\r\nZREMRANGEBYRANK\r\n$1\r\na\r\n$1\r\n0\r\n$1\r\n0\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$14\r\nZREMRANGEBYLEX\r\n$1\r\na\r\n$1\r\n-\r\n$1\r\n+\r\n", b":2\r\n").await;
    c.expect(b"*2\r\n$6\r\nEXISTS\r\n$1\r\na\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$14\r\nZREMRANGEBYLEX\r\n$1\r\na\r\n$1\r\nx\r\n$1\r\ny\r\n", b"-ERR min or max not valid string range item\r\n").await;
    c.expect(b"*4\r\n$16\r\nZREMRANGEBYSCORE\r\n$1\r\na\r\n$1\r\nx\r\n$1\r\ny\r\n", b"-ERR min or max is not a float\r\n").await;
    c.expect(b"*4\r\n$16\r\nZREMRANGEBYSCORE\r\n$3\r\nstr\r\n$1\r\n1\r\n$1\r\n2\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*8\r\n$4\r\nZADD\r\n$2\r\nr2\r\n$1\r\n1\r\n$1\r\na\r\n$1\r\n2\r\n$1\r\nb\r\n$1\r\n3\r\n$1\r\nc\r\n", b":3\r\n").await;
    c.expect(b"*4\r\n$4\r\nZADD\r\n$3\r\none\r\n$1\r\n7\r\n$4\r\nonly\r\n", b":1\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn blocking_pops_wake_and_time_out() {
    // BZPOPMIN parks until a ZADD on another connection; BZMPOP times out with a null array.
    let server = TestServer::start().await;
    let mut waiter = server.client().await;
    let mut writer = server.client().await;
    waiter.send(b"BZPOPMIN q1 q2 5\r\n").await;
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    writer.expect(b"ZADD q2 2 b 1 a\r\n", b":2\r\n").await;
    assert_eq!(waiter.read_reply().await, b"*3\r\n$2\r\nq2\r\n$1\r\na\r\n$1\r\n1\r\n".to_vec());
    waiter.expect(b"BZMPOP 0.05 1 none MIN\r\n", b"*-1\r\n").await;
    waiter.expect(b"MULTI\r\nBZPOPMAX none 0\r\nEXEC\r\n", b"+OK\r\n+QUEUED\r\n*1\r\n*-1\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn zrandmember_shapes() {
    // Random picks from a one-member set are deterministic: a negative count repeats it.
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"ZADD one 7 only\r\nZRANDMEMBER one\r\nZRANDMEMBER one -3 WITHSCORES\r\nZRANDMEMBER one 3\r\nZRANDMEMBER none 2\r\nZRANDMEMBER one 0\r\n",
        b":1\r\n$4\r\nonly\r\n*6\r\n$4\r\nonly\r\n$1\r\n7\r\n$4\r\nonly\r\n$1\r\n7\r\n$4\r\nonly\r\n$1\r\n7\r\n*1\r\n$4\r\nonly\r\n*0\r\n*0\r\n").await;
    c.expect(b"ZRANDMEMBER one 1 WITHSCOREZ\r\n", b"-ERR syntax error\r\n").await;
    server.stop().await;
}
