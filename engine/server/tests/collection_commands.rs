//! Hash, list and set commands of issue 18 at the wire: exact bytes, each the reply redis-server
//! 7.0.15 gave to the same request (lines marked in a comment are Basalt's own figures).

mod common;

use common::TestServer;

#[tokio::test]
async fn hash_commands() {
    // HINCRBYFLOAT, HSTRLEN, HRANDFIELD (one field: deterministic), MEMORY USAGE (its size is Basalt's own accounting: key, value, per-key index overhead).
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"*8\r\n$4\r\nHSET\r\n$1\r\nh\r\n$1\r\nf\r\n$4\r\n10.5\r\n$1\r\ni\r\n$1\r\n3\r\n$1\r\ns\r\n$3\r\nabc\r\n", b":3\r\n").await;
    c.expect(b"*4\r\n$12\r\nHINCRBYFLOAT\r\n$1\r\nh\r\n$1\r\nf\r\n$3\r\n0.1\r\n", b"$4\r\n10.6\r\n").await;
    c.expect(b"*4\r\n$12\r\nHINCRBYFLOAT\r\n$1\r\nh\r\n$1\r\ni\r\n$1\r\n2\r\n", b"$1\r\n5\r\n").await;
    c.expect(b"*4\r\n$12\r\nHINCRBYFLOAT\r\n$1\r\nh\r\n$3\r\nnew\r\n$5\r\n5.0e3\r\n", b"$4\r\n5000\r\n").await;
    c.expect(b"*4\r\n$12\r\nHINCRBYFLOAT\r\n$1\r\nh\r\n$1\r\ns\r\n$1\r\n1\r\n", b"-ERR hash value is not a float\r\n").await;
    c.expect(b"*4\r\n$12\r\nHINCRBYFLOAT\r\n$1\r\nh\r\n$1\r\nf\r\n$1\r\nx\r\n", b"-ERR value is not a valid float\r\n").await;
    c.expect(b"*4\r\n$12\r\nHINCRBYFLOAT\r\n$1\r\nh\r\n$1\r\nf\r\n$4\r\n+inf\r\n", b"-ERR value is NaN or Infinity\r\n").await;
    c.expect(b"*4\r\n$12\r\nHINCRBYFLOAT\r\n$5\r\nnokey\r\n$1\r\nf\r\n$3\r\n1.5\r\n", b"$3\r\n1.5\r\n").await;
    c.expect(b"*3\r\n$7\r\nHSTRLEN\r\n$1\r\nh\r\n$1\r\ns\r\n", b":3\r\n").await;
    c.expect(b"*3\r\n$7\r\nHSTRLEN\r\n$1\r\nh\r\n$7\r\nmissing\r\n", b":0\r\n").await;
    c.expect(b"*3\r\n$7\r\nHSTRLEN\r\n$5\r\nnokey\r\n$1\r\ns\r\n", b":0\r\n").await;
    c.expect(b"*2\r\n$10\r\nHRANDFIELD\r\n$5\r\nnokey\r\n", b"$1\r\nf\r\n").await;
    c.expect(b"*3\r\n$10\r\nHRANDFIELD\r\n$5\r\nnokey\r\n$1\r\n3\r\n", b"*1\r\n$1\r\nf\r\n").await;
    c.expect(b"*4\r\n$4\r\nHSET\r\n$3\r\none\r\n$1\r\nf\r\n$1\r\nv\r\n", b":1\r\n").await;
    c.expect(b"*2\r\n$10\r\nHRANDFIELD\r\n$3\r\none\r\n", b"$1\r\nf\r\n").await;
    c.expect(b"*4\r\n$10\r\nHRANDFIELD\r\n$3\r\none\r\n$2\r\n-2\r\n$10\r\nWITHVALUES\r\n", b"*4\r\n$1\r\nf\r\n$1\r\nv\r\n$1\r\nf\r\n$1\r\nv\r\n").await;
    c.expect(b"*3\r\n$10\r\nHRANDFIELD\r\n$3\r\none\r\n$1\r\n5\r\n", b"*1\r\n$1\r\nf\r\n").await;
    c.expect(b"*3\r\n$10\r\nHRANDFIELD\r\n$3\r\none\r\n$1\r\n0\r\n", b"*0\r\n").await;
    c.expect(b"*4\r\n$10\r\nHRANDFIELD\r\n$3\r\none\r\n$1\r\n1\r\n$10\r\nWITHVALUEZ\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*3\r\n$10\r\nHRANDFIELD\r\n$3\r\none\r\n$1\r\nx\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"*3\r\n$6\r\nMEMORY\r\n$5\r\nUSAGE\r\n$5\r\nnokey\r\n", b":265\r\n").await;
    c.expect(b"*5\r\n$6\r\nMEMORY\r\n$5\r\nUSAGE\r\n$3\r\none\r\n$7\r\nSAMPLES\r\n$1\r\nx\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"*4\r\n$6\r\nMEMORY\r\n$5\r\nUSAGE\r\n$3\r\none\r\n$3\r\nFOO\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$3\r\nstr\r\n$1\r\nx\r\n", b"+OK\r\n").await;
    c.expect(b"*4\r\n$12\r\nHINCRBYFLOAT\r\n$3\r\nstr\r\n$1\r\nf\r\n$1\r\n1\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$7\r\nHSTRLEN\r\n$3\r\nstr\r\n$1\r\nf\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*2\r\n$10\r\nHRANDFIELD\r\n$3\r\nstr\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn list_commands() {
    // LINDEX, LSET, LINSERT, LREM, LPOS, LTRIM, LPUSHX/RPUSHX, LMPOP/BLMPOP, the list CONFIG parameters and DEBUG QUICKLIST-PACKED-THRESHOLD.
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"*8\r\n$5\r\nRPUSH\r\n$1\r\nl\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\na\r\n$1\r\nd\r\n$1\r\na\r\n", b":6\r\n").await;
    c.expect(b"*3\r\n$6\r\nLINDEX\r\n$1\r\nl\r\n$1\r\n0\r\n", b"$1\r\na\r\n").await;
    c.expect(b"*3\r\n$6\r\nLINDEX\r\n$1\r\nl\r\n$2\r\n-1\r\n", b"$1\r\na\r\n").await;
    c.expect(b"*3\r\n$6\r\nLINDEX\r\n$1\r\nl\r\n$1\r\n6\r\n", b"$-1\r\n").await;
    c.expect(b"*3\r\n$6\r\nLINDEX\r\n$1\r\nl\r\n$1\r\nx\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"*3\r\n$6\r\nLINDEX\r\n$5\r\nnokey\r\n$1\r\n0\r\n", b"$-1\r\n").await;
    c.expect(b"*4\r\n$4\r\nLSET\r\n$1\r\nl\r\n$1\r\n1\r\n$1\r\nB\r\n", b"+OK\r\n").await;
    c.expect(b"*4\r\n$4\r\nLSET\r\n$1\r\nl\r\n$2\r\n10\r\n$1\r\nx\r\n", b"-ERR index out of range\r\n").await;
    c.expect(b"*4\r\n$4\r\nLSET\r\n$1\r\nl\r\n$1\r\nx\r\n$1\r\ny\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"*4\r\n$4\r\nLSET\r\n$5\r\nnokey\r\n$1\r\n0\r\n$1\r\nx\r\n", b"-ERR no such key\r\n").await;
    c.expect(b"*4\r\n$6\r\nLRANGE\r\n$1\r\nl\r\n$1\r\n0\r\n$2\r\n-1\r\n", b"*6\r\n$1\r\na\r\n$1\r\nB\r\n$1\r\nc\r\n$1\r\na\r\n$1\r\nd\r\n$1\r\na\r\n").await;
    c.expect(b"*5\r\n$7\r\nLINSERT\r\n$1\r\nl\r\n$6\r\nBEFORE\r\n$1\r\na\r\n$1\r\nX\r\n", b":7\r\n").await;
    c.expect(b"*5\r\n$7\r\nLINSERT\r\n$1\r\nl\r\n$5\r\nAFTER\r\n$1\r\nd\r\n$1\r\nY\r\n", b":8\r\n").await;
    c.expect(b"*5\r\n$7\r\nLINSERT\r\n$1\r\nl\r\n$5\r\nAFTER\r\n$2\r\nzz\r\n$1\r\nY\r\n", b":-1\r\n").await;
    c.expect(b"*5\r\n$7\r\nLINSERT\r\n$1\r\nl\r\n$6\r\nMIDDLE\r\n$1\r\na\r\n$1\r\nY\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*5\r\n$7\r\nLINSERT\r\n$5\r\nnokey\r\n$6\r\nBEFORE\r\n$1\r\na\r\n$1\r\nb\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$6\r\nLRANGE\r\n$1\r\nl\r\n$1\r\n0\r\n$2\r\n-1\r\n", b"*8\r\n$1\r\nX\r\n$1\r\na\r\n$1\r\nB\r\n$1\r\nc\r\n$1\r\na\r\n$1\r\nd\r\n$1\r\nY\r\n$1\r\na\r\n").await;
    c.expect(b"*4\r\n$4\r\nLREM\r\n$1\r\nl\r\n$1\r\n1\r\n$1\r\na\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$4\r\nLREM\r\n$1\r\nl\r\n$2\r\n-1\r\n$1\r\na\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$4\r\nLREM\r\n$1\r\nl\r\n$1\r\n0\r\n$2\r\nzz\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$6\r\nLRANGE\r\n$1\r\nl\r\n$1\r\n0\r\n$2\r\n-1\r\n", b"*6\r\n$1\r\nX\r\n$1\r\nB\r\n$1\r\nc\r\n$1\r\na\r\n$1\r\nd\r\n$1\r\nY\r\n").await;
    c.expect(b"*4\r\n$4\r\nLREM\r\n$1\r\nl\r\n$1\r\nx\r\n$1\r\na\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"*4\r\n$4\r\nLREM\r\n$1\r\nl\r\n$1\r\n0\r\n$1\r\na\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$6\r\nLRANGE\r\n$1\r\nl\r\n$1\r\n0\r\n$2\r\n-1\r\n", b"*5\r\n$1\r\nX\r\n$1\r\nB\r\n$1\r\nc\r\n$1\r\nd\r\n$1\r\nY\r\n").await;
    c.expect(b"*9\r\n$5\r\nRPUSH\r\n$1\r\np\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\na\r\n", b":7\r\n").await;
    c.expect(b"*3\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n", b":0\r\n").await;
    c.expect(b"*5\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n$4\r\nRANK\r\n$1\r\n2\r\n", b":3\r\n").await;
    c.expect(b"*5\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n$4\r\nRANK\r\n$2\r\n-1\r\n", b":6\r\n").await;
    c.expect(b"*5\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n$5\r\nCOUNT\r\n$1\r\n0\r\n", b"*3\r\n:0\r\n:3\r\n:6\r\n").await;
    c.expect(b"*7\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n$5\r\nCOUNT\r\n$1\r\n2\r\n$4\r\nRANK\r\n$2\r\n-1\r\n", b"*2\r\n:6\r\n:3\r\n").await;
    c.expect(b"*7\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n$6\r\nMAXLEN\r\n$1\r\n1\r\n$5\r\nCOUNT\r\n$1\r\n0\r\n", b"*1\r\n:0\r\n").await;
    c.expect(b"*9\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n$4\r\nRANK\r\n$2\r\n-1\r\n$6\r\nMAXLEN\r\n$1\r\n2\r\n$5\r\nCOUNT\r\n$1\r\n0\r\n", b"*1\r\n:6\r\n").await;
    c.expect(b"*5\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n$4\r\nRANK\r\n$1\r\n0\r\n", b"-ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list\r\n").await;
    c.expect(b"*5\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n$5\r\nCOUNT\r\n$2\r\n-1\r\n", b"-ERR COUNT can't be negative\r\n").await;
    c.expect(b"*5\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n$5\r\nCOUNT\r\n$1\r\nx\r\n", b"-ERR COUNT can't be negative\r\n").await;
    c.expect(b"*5\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n$6\r\nMAXLEN\r\n$2\r\n-1\r\n", b"-ERR MAXLEN can't be negative\r\n").await;
    c.expect(b"*5\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n$4\r\nRANK\r\n$20\r\n-9223372036854775808\r\n", b":6\r\n").await;
    c.expect(b"*5\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n$4\r\nRANK\r\n$1\r\nx\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"*4\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n$3\r\nFOO\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*4\r\n$4\r\nLPOS\r\n$1\r\np\r\n$1\r\na\r\n$5\r\nCOUNT\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*3\r\n$4\r\nLPOS\r\n$1\r\np\r\n$2\r\nzz\r\n", b"$-1\r\n").await;
    c.expect(b"*5\r\n$4\r\nLPOS\r\n$1\r\np\r\n$2\r\nzz\r\n$5\r\nCOUNT\r\n$1\r\n1\r\n", b"*0\r\n").await;
    c.expect(b"*3\r\n$4\r\nLPOS\r\n$5\r\nnokey\r\n$1\r\na\r\n", b"$-1\r\n").await;
    c.expect(b"*5\r\n$4\r\nLPOS\r\n$5\r\nnokey\r\n$1\r\na\r\n$5\r\nCOUNT\r\n$1\r\n1\r\n", b"*0\r\n").await;
    c.expect(b"*4\r\n$5\r\nLTRIM\r\n$1\r\np\r\n$1\r\n1\r\n$2\r\n-2\r\n", b"+OK\r\n").await;
    c.expect(b"*4\r\n$6\r\nLRANGE\r\n$1\r\np\r\n$1\r\n0\r\n$2\r\n-1\r\n", b"*5\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n").await;
    c.expect(b"*4\r\n$5\r\nLTRIM\r\n$1\r\np\r\n$1\r\n5\r\n$1\r\n1\r\n", b"+OK\r\n").await;
    c.expect(b"*2\r\n$6\r\nEXISTS\r\n$1\r\np\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$5\r\nLTRIM\r\n$5\r\nnokey\r\n$1\r\n0\r\n$1\r\n1\r\n", b"+OK\r\n").await;
    c.expect(b"*4\r\n$5\r\nLTRIM\r\n$1\r\nl\r\n$1\r\nx\r\n$1\r\n1\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"*3\r\n$6\r\nLPUSHX\r\n$5\r\nnokey\r\n$1\r\na\r\n", b":0\r\n").await;
    c.expect(b"*3\r\n$6\r\nRPUSHX\r\n$5\r\nnokey\r\n$1\r\na\r\n", b":0\r\n").await;
    c.expect(b"*2\r\n$6\r\nEXISTS\r\n$5\r\nnokey\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$6\r\nLPUSHX\r\n$1\r\nl\r\n$1\r\n1\r\n$1\r\n2\r\n", b":7\r\n").await;
    c.expect(b"*4\r\n$6\r\nRPUSHX\r\n$1\r\nl\r\n$1\r\n3\r\n$1\r\n4\r\n", b":9\r\n").await;
    c.expect(b"*4\r\n$6\r\nLRANGE\r\n$1\r\nl\r\n$1\r\n0\r\n$2\r\n-1\r\n", b"*9\r\n$1\r\n2\r\n$1\r\n1\r\n$1\r\nX\r\n$1\r\nB\r\n$1\r\nc\r\n$1\r\nd\r\n$1\r\nY\r\n$1\r\n3\r\n$1\r\n4\r\n").await;
    c.expect(b"*6\r\n$5\r\nRPUSH\r\n$1\r\nm\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\nd\r\n", b":4\r\n").await;
    c.expect(b"*4\r\n$5\r\nLMPOP\r\n$1\r\n1\r\n$1\r\nm\r\n$4\r\nLEFT\r\n", b"*2\r\n$1\r\nm\r\n*1\r\n$1\r\na\r\n").await;
    c.expect(b"*7\r\n$5\r\nLMPOP\r\n$1\r\n2\r\n$5\r\nnokey\r\n$1\r\nm\r\n$5\r\nRIGHT\r\n$5\r\nCOUNT\r\n$1\r\n2\r\n", b"*2\r\n$1\r\nm\r\n*2\r\n$1\r\nd\r\n$1\r\nc\r\n").await;
    c.expect(b"*6\r\n$5\r\nLMPOP\r\n$1\r\n1\r\n$1\r\nm\r\n$4\r\nLEFT\r\n$5\r\nCOUNT\r\n$2\r\n10\r\n", b"*2\r\n$1\r\nm\r\n*1\r\n$1\r\nb\r\n").await;
    c.expect(b"*2\r\n$6\r\nEXISTS\r\n$1\r\nm\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$5\r\nLMPOP\r\n$1\r\n1\r\n$1\r\nm\r\n$4\r\nLEFT\r\n", b"*-1\r\n").await;
    c.expect(b"*4\r\n$5\r\nLMPOP\r\n$1\r\n0\r\n$1\r\nm\r\n$4\r\nLEFT\r\n", b"-ERR numkeys should be greater than 0\r\n").await;
    c.expect(b"*4\r\n$5\r\nLMPOP\r\n$1\r\n1\r\n$1\r\nm\r\n$2\r\nUP\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*6\r\n$5\r\nLMPOP\r\n$1\r\n1\r\n$1\r\nm\r\n$4\r\nLEFT\r\n$5\r\nCOUNT\r\n$1\r\n0\r\n", b"-ERR count should be greater than 0\r\n").await;
    c.expect(b"*5\r\n$6\r\nBLMPOP\r\n$4\r\n0.01\r\n$1\r\n1\r\n$1\r\nm\r\n$4\r\nLEFT\r\n", b"*-1\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$3\r\nstr\r\n$1\r\nx\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$6\r\nLINDEX\r\n$3\r\nstr\r\n$1\r\n0\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*4\r\n$4\r\nLSET\r\n$3\r\nstr\r\n$1\r\n0\r\n$1\r\nx\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*5\r\n$7\r\nLINSERT\r\n$3\r\nstr\r\n$6\r\nBEFORE\r\n$1\r\na\r\n$1\r\nb\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*4\r\n$4\r\nLREM\r\n$3\r\nstr\r\n$1\r\n0\r\n$1\r\na\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*4\r\n$5\r\nLTRIM\r\n$3\r\nstr\r\n$1\r\n0\r\n$1\r\n1\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$4\r\nLPOS\r\n$3\r\nstr\r\n$1\r\na\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$6\r\nLPUSHX\r\n$3\r\nstr\r\n$1\r\na\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*4\r\n$5\r\nLMPOP\r\n$1\r\n1\r\n$3\r\nstr\r\n$4\r\nLEFT\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$21\r\nlist-max-ziplist-size\r\n$1\r\n1\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$6\r\nCONFIG\r\n$3\r\nGET\r\n$21\r\nlist-max-ziplist-size\r\n", b"*2\r\n$21\r\nlist-max-ziplist-size\r\n$1\r\n1\r\n").await;
    c.expect(b"*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$19\r\nlist-compress-depth\r\n$1\r\n2\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$6\r\nCONFIG\r\n$3\r\nGET\r\n$19\r\nlist-compress-depth\r\n", b"*2\r\n$19\r\nlist-compress-depth\r\n$1\r\n2\r\n").await;
    c.expect(b"*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$19\r\nlist-compress-depth\r\n$2\r\n-1\r\n", b"-ERR CONFIG SET failed (possibly related to argument 'list-compress-depth') - argument must be between 0 and 2147483647 inclusive\r\n").await;
    c.expect(b"*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$22\r\nlist-max-listpack-size\r\n$2\r\n-2\r\n", b"+OK\r\n").await;
    c.expect(b"*4\r\n$6\r\nCONFIG\r\n$3\r\nSET\r\n$19\r\nlist-compress-depth\r\n$1\r\n0\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$5\r\nDEBUG\r\n$26\r\nQUICKLIST-PACKED-THRESHOLD\r\n$2\r\n1b\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$5\r\nDEBUG\r\n$26\r\nQUICKLIST-PACKED-THRESHOLD\r\n$1\r\n0\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$5\r\nDEBUG\r\n$26\r\nQUICKLIST-PACKED-THRESHOLD\r\n$3\r\nabc\r\n", b"-ERR argument must be a memory value bigger than 1 and smaller than 4gb\r\n").await;
    c.expect(b"LPOP k 1 1\r\nRPOP k x y\r\n", b"-ERR wrong number of arguments for 'lpop' command\r\n-ERR wrong number of arguments for 'rpop' command\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn set_commands() {
    // SINTER/SUNION/SDIFF(+STORE), SINTERCARD, SMOVE (results of several members checked by SCARD/SMISMEMBER: set order is not Redis').
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"*6\r\n$4\r\nSADD\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n$1\r\n4\r\n", b":4\r\n").await;
    c.expect(b"*5\r\n$4\r\nSADD\r\n$1\r\nb\r\n$1\r\n3\r\n$1\r\n4\r\n$1\r\n5\r\n", b":3\r\n").await;
    c.expect(b"*4\r\n$4\r\nSADD\r\n$1\r\nc\r\n$1\r\n4\r\n$1\r\nx\r\n", b":2\r\n").await;
    c.expect(b"*4\r\n$6\r\nSINTER\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n", b"*1\r\n$1\r\n4\r\n").await;
    c.expect(b"*3\r\n$6\r\nSINTER\r\n$1\r\na\r\n$5\r\nnokey\r\n", b"*0\r\n").await;
    c.expect(b"*3\r\n$5\r\nSDIFF\r\n$5\r\nnokey\r\n$1\r\na\r\n", b"*0\r\n").await;
    c.expect(b"*4\r\n$11\r\nSINTERSTORE\r\n$1\r\nd\r\n$1\r\na\r\n$1\r\nb\r\n", b":2\r\n").await;
    c.expect(b"*2\r\n$5\r\nSCARD\r\n$1\r\nd\r\n", b":2\r\n").await;
    c.expect(b"*5\r\n$10\r\nSMISMEMBER\r\n$1\r\nd\r\n$1\r\n3\r\n$1\r\n4\r\n$1\r\n5\r\n", b"*3\r\n:1\r\n:1\r\n:0\r\n").await;
    c.expect(b"*4\r\n$11\r\nSINTERSTORE\r\n$1\r\nd\r\n$1\r\na\r\n$5\r\nnokey\r\n", b":0\r\n").await;
    c.expect(b"*2\r\n$6\r\nEXISTS\r\n$1\r\nd\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$11\r\nSUNIONSTORE\r\n$1\r\nd\r\n$1\r\na\r\n$1\r\nb\r\n", b":5\r\n").await;
    c.expect(b"*2\r\n$5\r\nSCARD\r\n$1\r\nd\r\n", b":5\r\n").await;
    c.expect(b"*5\r\n$10\r\nSDIFFSTORE\r\n$1\r\nd\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n", b":2\r\n").await;
    c.expect(b"*5\r\n$10\r\nSMISMEMBER\r\n$1\r\nd\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n", b"*3\r\n:1\r\n:1\r\n:0\r\n").await;
    c.expect(b"*4\r\n$10\r\nSDIFFSTORE\r\n$1\r\nd\r\n$1\r\na\r\n$1\r\na\r\n", b":0\r\n").await;
    c.expect(b"*2\r\n$6\r\nEXISTS\r\n$1\r\nd\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$10\r\nSINTERCARD\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n", b":2\r\n").await;
    c.expect(b"*6\r\n$10\r\nSINTERCARD\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$5\r\nLIMIT\r\n$1\r\n1\r\n", b":1\r\n").await;
    c.expect(b"*6\r\n$10\r\nSINTERCARD\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$5\r\nLIMIT\r\n$1\r\n0\r\n", b":2\r\n").await;
    c.expect(b"*6\r\n$10\r\nSINTERCARD\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\nb\r\n$5\r\nLIMIT\r\n$2\r\n-1\r\n", b"-ERR LIMIT can't be negative\r\n").await;
    c.expect(b"*3\r\n$10\r\nSINTERCARD\r\n$1\r\n0\r\n$1\r\na\r\n", b"-ERR numkeys should be greater than 0\r\n").await;
    c.expect(b"*4\r\n$10\r\nSINTERCARD\r\n$1\r\n3\r\n$1\r\na\r\n$1\r\nb\r\n", b"-ERR Number of keys can't be greater than number of args\r\n").await;
    c.expect(b"*3\r\n$10\r\nSINTERCARD\r\n$1\r\n1\r\n$5\r\nnokey\r\n", b":0\r\n").await;
    c.expect(b"*3\r\n$10\r\nSINTERCARD\r\n$1\r\nx\r\n$1\r\na\r\n", b"-ERR numkeys should be greater than 0\r\n").await;
    c.expect(b"*4\r\n$10\r\nSINTERCARD\r\n$1\r\n1\r\n$1\r\na\r\n$3\r\nFOO\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*4\r\n$5\r\nSMOVE\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\n1\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$5\r\nSMOVE\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\n1\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$5\r\nSMOVE\r\n$1\r\na\r\n$6\r\nnewkey\r\n$1\r\n2\r\n", b":1\r\n").await;
    c.expect(b"*2\r\n$8\r\nSMEMBERS\r\n$6\r\nnewkey\r\n", b"*1\r\n$1\r\n2\r\n").await;
    c.expect(b"*4\r\n$5\r\nSMOVE\r\n$5\r\nnokey\r\n$1\r\nb\r\n$1\r\n1\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$5\r\nSMOVE\r\n$1\r\na\r\n$1\r\na\r\n$1\r\n3\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$5\r\nSMOVE\r\n$1\r\na\r\n$1\r\na\r\n$2\r\nzz\r\n", b":0\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$3\r\nstr\r\n$1\r\nx\r\n", b"+OK\r\n").await;
    c.expect(b"*4\r\n$5\r\nSMOVE\r\n$1\r\na\r\n$3\r\nstr\r\n$1\r\n4\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*4\r\n$5\r\nSMOVE\r\n$3\r\nstr\r\n$1\r\na\r\n$1\r\n4\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$6\r\nSINTER\r\n$1\r\na\r\n$3\r\nstr\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$6\r\nSUNION\r\n$3\r\nstr\r\n$1\r\na\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$5\r\nSDIFF\r\n$1\r\na\r\n$3\r\nstr\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$11\r\nSINTERSTORE\r\n$1\r\na\r\n$3\r\nstr\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$10\r\nSINTERCARD\r\n$1\r\n1\r\n$3\r\nstr\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$11\r\nSUNIONSTORE\r\n$3\r\nstr\r\n$1\r\na\r\n", b":2\r\n").await;
    c.expect(b"*2\r\n$4\r\nTYPE\r\n$3\r\nstr\r\n", b"+set\r\n").await;
    server.stop().await;
}

