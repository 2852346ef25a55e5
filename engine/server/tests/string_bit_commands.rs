//! SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP, LCS and COPY at the wire: exact bytes, each the reply redis-server 7.0.15 gave
//! to the same request.

mod common;

use common::TestServer;

#[tokio::test]
async fn bits_lcs_and_copy() {
    // Bit offsets and their errors, LCS (string, LEN, IDX with MINMATCHLEN/WITHMATCHLEN, the RNA pair of Redis' suite), COPY across databases with REPLACE (PERSIST shows the copy kept the TTL).
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"*4\r\n$6\r\nSETBIT\r\n$1\r\nb\r\n$1\r\n7\r\n$1\r\n1\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$6\r\nSETBIT\r\n$1\r\nb\r\n$1\r\n7\r\n$1\r\n0\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$6\r\nSETBIT\r\n$1\r\nb\r\n$3\r\n100\r\n$1\r\n1\r\n", b":0\r\n").await;
    c.expect(b"*2\r\n$3\r\nGET\r\n$1\r\nb\r\n", b"$13\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x08\r\n").await;
    c.expect(b"*3\r\n$6\r\nGETBIT\r\n$1\r\nb\r\n$3\r\n100\r\n", b":1\r\n").await;
    c.expect(b"*3\r\n$6\r\nGETBIT\r\n$1\r\nb\r\n$2\r\n99\r\n", b":0\r\n").await;
    c.expect(b"*3\r\n$6\r\nGETBIT\r\n$1\r\nb\r\n$6\r\n100000\r\n", b":0\r\n").await;
    c.expect(b"*3\r\n$6\r\nGETBIT\r\n$5\r\nnokey\r\n$1\r\n0\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$6\r\nSETBIT\r\n$1\r\nb\r\n$2\r\n-1\r\n$1\r\n1\r\n", b"-ERR bit offset is not an integer or out of range\r\n").await;
    c.expect(b"*4\r\n$6\r\nSETBIT\r\n$1\r\nb\r\n$1\r\nx\r\n$1\r\n1\r\n", b"-ERR bit offset is not an integer or out of range\r\n").await;
    c.expect(b"*4\r\n$6\r\nSETBIT\r\n$1\r\nb\r\n$10\r\n4294967296\r\n$1\r\n1\r\n", b"-ERR bit offset is not an integer or out of range\r\n").await;
    c.expect(b"*4\r\n$6\r\nSETBIT\r\n$1\r\nb\r\n$1\r\n1\r\n$1\r\n2\r\n", b"-ERR bit is not an integer or out of range\r\n").await;
    c.expect(b"*4\r\n$6\r\nSETBIT\r\n$1\r\nb\r\n$1\r\n1\r\n$1\r\nx\r\n", b"-ERR bit is not an integer or out of range\r\n").await;
    c.expect(b"*3\r\n$6\r\nGETBIT\r\n$1\r\nb\r\n$2\r\n-1\r\n", b"-ERR bit offset is not an integer or out of range\r\n").await;
    c.expect(b"*3\r\n$6\r\nGETBIT\r\n$1\r\nb\r\n$10\r\n4294967296\r\n", b"-ERR bit offset is not an integer or out of range\r\n").await;
    c.expect(b"*4\r\n$4\r\nHSET\r\n$1\r\nh\r\n$1\r\nf\r\n$1\r\nv\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$6\r\nSETBIT\r\n$1\r\nh\r\n$1\r\n0\r\n$1\r\n1\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$6\r\nGETBIT\r\n$1\r\nh\r\n$1\r\n0\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$1\r\na\r\n$8\r\nohmytext\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$1\r\nc\r\n$9\r\nmynewtext\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$3\r\nLCS\r\n$1\r\na\r\n$1\r\nc\r\n", b"$6\r\nmytext\r\n").await;
    c.expect(b"*4\r\n$3\r\nLCS\r\n$1\r\na\r\n$1\r\nc\r\n$3\r\nLEN\r\n", b":6\r\n").await;
    c.expect(b"*4\r\n$3\r\nLCS\r\n$1\r\na\r\n$1\r\nc\r\n$3\r\nIDX\r\n", b"*4\r\n$7\r\nmatches\r\n*2\r\n*2\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n*2\r\n*2\r\n:2\r\n:3\r\n*2\r\n:0\r\n:1\r\n$3\r\nlen\r\n:6\r\n").await;
    c.expect(b"*6\r\n$3\r\nLCS\r\n$1\r\na\r\n$1\r\nc\r\n$3\r\nIDX\r\n$11\r\nMINMATCHLEN\r\n$1\r\n4\r\n", b"*4\r\n$7\r\nmatches\r\n*1\r\n*2\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n$3\r\nlen\r\n:6\r\n").await;
    c.expect(b"*7\r\n$3\r\nLCS\r\n$1\r\na\r\n$1\r\nc\r\n$3\r\nIDX\r\n$11\r\nMINMATCHLEN\r\n$1\r\n4\r\n$12\r\nWITHMATCHLEN\r\n", b"*4\r\n$7\r\nmatches\r\n*1\r\n*3\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n:4\r\n$3\r\nlen\r\n:6\r\n").await;
    c.expect(b"*5\r\n$3\r\nLCS\r\n$1\r\na\r\n$1\r\nc\r\n$3\r\nIDX\r\n$12\r\nWITHMATCHLEN\r\n", b"*4\r\n$7\r\nmatches\r\n*2\r\n*3\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n:4\r\n*3\r\n*2\r\n:2\r\n:3\r\n*2\r\n:0\r\n:1\r\n:2\r\n$3\r\nlen\r\n:6\r\n").await;
    c.expect(b"*5\r\n$3\r\nLCS\r\n$1\r\na\r\n$1\r\nc\r\n$3\r\nLEN\r\n$3\r\nIDX\r\n", b"-ERR If you want both the length and indexes, please just use IDX.\r\n").await;
    c.expect(b"*3\r\n$3\r\nLCS\r\n$1\r\na\r\n$5\r\nnokey\r\n", b"$0\r\n\r\n").await;
    c.expect(b"*4\r\n$3\r\nLCS\r\n$1\r\na\r\n$5\r\nnokey\r\n$3\r\nIDX\r\n", b"*4\r\n$7\r\nmatches\r\n*0\r\n$3\r\nlen\r\n:0\r\n").await;
    c.expect(b"*3\r\n$3\r\nLCS\r\n$1\r\na\r\n$1\r\nh\r\n", b"-ERR The specified keys must contain string values\r\n").await;
    c.expect(b"*4\r\n$3\r\nLCS\r\n$1\r\na\r\n$1\r\nc\r\n$3\r\nFOO\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*5\r\n$3\r\nLCS\r\n$1\r\na\r\n$1\r\nc\r\n$11\r\nMINMATCHLEN\r\n$1\r\nx\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$4\r\nrna1\r\n$240\r\nCACCTTCCCAGGTAACAAACCAACCAACTTTCGATCTCTTGTAGATCTGTTCTCTAAACGAACTTTAAAATCTGTGTGGCTGTCACTCGGCTGCATGCTTAGTGCACTCACGCAGTATAATTAATAACTAATTACTGTCGTTGACAGGACACGAGTAACTCGTCTATCTTCTGCAGGCTGCTTACGGTTTCGTCCGTGTTGCAGCCGATCATCAGCACATCTAGGTTTCGTCCGGGTGTG\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$4\r\nrna2\r\n$240\r\nATTAAAGGTTTATACCTTCCCAGGTAACAAACCAACCAACTTTCGATCTCTTGTAGATCTGTTCTCTAAACGAACTTTAAAATCTGTGTGGCTGTCACTCGGCTGCATGCTTAGTGCACTCACGCAGTATAATTAATAACTAATTACTGTCGTTGACAGGACACGAGTAACTCGTCTATCTTCTGCAGGCTGCTTACGGTTTCGTCCGTGTTGCAGCCGATCATCAGCACATCTAGGTTT\r\n", b"+OK\r\n").await;
    c.expect(b"*7\r\n$3\r\nLCS\r\n$4\r\nrna1\r\n$4\r\nrna2\r\n$3\r\nIDX\r\n$11\r\nMINMATCHLEN\r\n$1\r\n5\r\n$12\r\nWITHMATCHLEN\r\n", b"*4\r\n$7\r\nmatches\r\n*1\r\n*3\r\n*2\r\n:1\r\n:222\r\n*2\r\n:13\r\n:234\r\n:222\r\n$3\r\nlen\r\n:227\r\n").await;
    c.expect(b"*4\r\n$3\r\nLCS\r\n$4\r\nrna1\r\n$4\r\nrna2\r\n$3\r\nLEN\r\n", b":227\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$2\r\nk1\r\n$1\r\nv\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$6\r\nEXPIRE\r\n$2\r\nk1\r\n$3\r\n100\r\n", b":1\r\n").await;
    c.expect(b"*3\r\n$4\r\nCOPY\r\n$2\r\nk1\r\n$2\r\nk2\r\n", b":1\r\n").await;
    c.expect(b"*2\r\n$7\r\nPERSIST\r\n$2\r\nk2\r\n", b":1\r\n").await;
    c.expect(b"*3\r\n$4\r\nCOPY\r\n$2\r\nk1\r\n$2\r\nk2\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$4\r\nCOPY\r\n$2\r\nk1\r\n$2\r\nk2\r\n$7\r\nREPLACE\r\n", b":1\r\n").await;
    c.expect(b"*3\r\n$4\r\nCOPY\r\n$2\r\nk1\r\n$2\r\nk1\r\n", b"-ERR source and destination objects are the same\r\n").await;
    c.expect(b"*5\r\n$4\r\nCOPY\r\n$2\r\nk1\r\n$2\r\nk1\r\n$2\r\nDB\r\n$1\r\n1\r\n", b":1\r\n").await;
    c.expect(b"*2\r\n$6\r\nSELECT\r\n$1\r\n1\r\n", b"+OK\r\n").await;
    c.expect(b"*2\r\n$3\r\nGET\r\n$2\r\nk1\r\n", b"$1\r\nv\r\n").await;
    c.expect(b"*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n", b"+OK\r\n").await;
    c.expect(b"*5\r\n$4\r\nCOPY\r\n$2\r\nk1\r\n$2\r\nk3\r\n$2\r\nDB\r\n$2\r\n16\r\n", b"-ERR DB index is out of range\r\n").await;
    c.expect(b"*5\r\n$4\r\nCOPY\r\n$2\r\nk1\r\n$2\r\nk3\r\n$2\r\nDB\r\n$1\r\nx\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"*4\r\n$4\r\nCOPY\r\n$2\r\nk1\r\n$2\r\nk3\r\n$3\r\nFOO\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*3\r\n$4\r\nCOPY\r\n$5\r\nnokey\r\n$2\r\nk3\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$5\r\nRPUSH\r\n$1\r\nl\r\n$1\r\na\r\n$1\r\nb\r\n", b":2\r\n").await;
    c.expect(b"*3\r\n$4\r\nCOPY\r\n$1\r\nl\r\n$2\r\nl2\r\n", b":1\r\n").await;
    c.expect(b"*4\r\n$6\r\nLRANGE\r\n$2\r\nl2\r\n$1\r\n0\r\n$2\r\n-1\r\n", b"*2\r\n$1\r\na\r\n$1\r\nb\r\n").await;
    c.expect(b"*6\r\n$4\r\nCOPY\r\n$1\r\nl\r\n$2\r\nk1\r\n$2\r\nDB\r\n$1\r\n0\r\n$7\r\nREPLACE\r\n", b":1\r\n").await;
    c.expect(b"*2\r\n$4\r\nTYPE\r\n$2\r\nk1\r\n", b"+list\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn lcs_idx_is_a_map_in_resp3() {
    // LCS IDX answers a map in RESP3.
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.send(b"HELLO 3\r\n").await;
    c.read_reply().await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$1\r\na\r\n$8\r\nohmytext\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$1\r\nc\r\n$9\r\nmynewtext\r\n", b"+OK\r\n").await;
    c.expect(b"*7\r\n$3\r\nLCS\r\n$1\r\na\r\n$1\r\nc\r\n$3\r\nIDX\r\n$11\r\nMINMATCHLEN\r\n$1\r\n4\r\n$12\r\nWITHMATCHLEN\r\n", b"%2\r\n$7\r\nmatches\r\n*1\r\n*3\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n:4\r\n$3\r\nlen\r\n:6\r\n").await;
    server.stop().await;
}


#[tokio::test]
async fn debug_digest_value_and_loadaof() {
    // DIGEST-VALUE is equal for equal values (a COPY) whatever the member order, 40 zeros for
    // a missing key; LOADAOF (like RELOAD) answers OK once the log is on disk.
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"SADD a x y z\r\nSADD b z y x\r\nCOPY a c\r\n", b":3\r\n:3\r\n:1\r\n").await;
    c.send(b"DEBUG DIGEST-VALUE a b c\r\n").await;
    let reply = c.read_reply().await;
    let lines: Vec<&[u8]> = reply.split(|&b| b == b'\n').collect();
    assert_eq!(lines[0], b"*3\r");
    assert!(lines[1].len() == 42 && lines[1] == lines[2] && lines[2] == lines[3], "{:?}", String::from_utf8_lossy(&reply));
    c.expect(b"DEBUG DIGEST-VALUE none\r\n", b"*1\r\n+0000000000000000000000000000000000000000\r\n").await;
    c.expect(b"DEBUG LOADAOF\r\nDEBUG RELOAD\r\nDEBUG RELOAD NOSAVE\r\nDEBUG RELOAD FAST\r\n", b"+OK\r\n+OK\r\n+OK\r\n-ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.\r\n").await;
    server.stop().await;
}

/// BITCOUNT, BITPOS (BYTE and BIT ranges, negative indexes, the zero padding past the string)
/// and BITOP (AND/OR/XOR/NOT, missing keys, an empty result deleting the destination, which
/// loses its TTL): bytes as redis-server 7.0.15 answered (and 21k random ranges compared with it).
#[tokio::test]
async fn bitcount_bitpos_bitop() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\n\xff\xf0\x00\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$1\r\na\r\n$3\r\nabc\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$1\r\nb\r\n$2\r\nxy\r\n", b"+OK\r\n").await;
    c.expect(b"*4\r\n$4\r\nHSET\r\n$1\r\nh\r\n$1\r\nf\r\n$1\r\nv\r\n", b":1\r\n").await;
    c.expect(b"*2\r\n$8\r\nBITCOUNT\r\n$1\r\nk\r\n", b":12\r\n").await;
    c.expect(b"*4\r\n$8\r\nBITCOUNT\r\n$1\r\nk\r\n$1\r\n1\r\n$1\r\n1\r\n", b":4\r\n").await;
    c.expect(b"*4\r\n$8\r\nBITCOUNT\r\n$1\r\nk\r\n$2\r\n-2\r\n$2\r\n-1\r\n", b":4\r\n").await;
    c.expect(b"*5\r\n$8\r\nBITCOUNT\r\n$1\r\nk\r\n$1\r\n5\r\n$2\r\n30\r\n$3\r\nBIT\r\n", b":7\r\n").await;
    c.expect(b"*4\r\n$8\r\nBITCOUNT\r\n$1\r\nk\r\n$2\r\n-1\r\n$2\r\n-2\r\n", b":0\r\n").await;
    c.expect(b"*5\r\n$8\r\nBITCOUNT\r\n$1\r\nk\r\n$1\r\n0\r\n$2\r\n-1\r\n$4\r\nbyte\r\n", b":12\r\n").await;
    c.expect(b"*5\r\n$8\r\nBITCOUNT\r\n$1\r\nk\r\n$1\r\n0\r\n$1\r\n1\r\n$4\r\nBITS\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*3\r\n$8\r\nBITCOUNT\r\n$1\r\nk\r\n$1\r\n1\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*4\r\n$8\r\nBITCOUNT\r\n$1\r\nk\r\n$1\r\nx\r\n$1\r\n1\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(b"*4\r\n$8\r\nBITCOUNT\r\n$5\r\nnokey\r\n$1\r\nx\r\n$1\r\n1\r\n", b":0\r\n").await;
    c.expect(b"*2\r\n$8\r\nBITCOUNT\r\n$1\r\nh\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$6\r\nBITPOS\r\n$1\r\nk\r\n$1\r\n0\r\n", b":12\r\n").await;
    c.expect(b"*4\r\n$6\r\nBITPOS\r\n$1\r\nk\r\n$1\r\n1\r\n$1\r\n2\r\n", b":-1\r\n").await;
    c.expect(b"*5\r\n$6\r\nBITPOS\r\n$1\r\nk\r\n$1\r\n0\r\n$1\r\n0\r\n$1\r\n0\r\n", b":-1\r\n").await;
    c.expect(b"*6\r\n$6\r\nBITPOS\r\n$1\r\nk\r\n$1\r\n0\r\n$1\r\n4\r\n$2\r\n11\r\n$3\r\nBIT\r\n", b":-1\r\n").await;
    c.expect(b"*6\r\n$6\r\nBITPOS\r\n$1\r\nk\r\n$1\r\n1\r\n$2\r\n12\r\n$2\r\n-1\r\n$3\r\nBIT\r\n", b":-1\r\n").await;
    c.expect(b"*5\r\n$6\r\nBITPOS\r\n$1\r\na\r\n$1\r\n0\r\n$1\r\n0\r\n$2\r\n-1\r\n", b":0\r\n").await;
    c.expect(b"*3\r\n$3\r\nSET\r\n$4\r\nones\r\n$2\r\n\xff\xff\r\n", b"+OK\r\n").await;
    c.expect(b"*3\r\n$6\r\nBITPOS\r\n$4\r\nones\r\n$1\r\n0\r\n", b":16\r\n").await;
    c.expect(b"*5\r\n$6\r\nBITPOS\r\n$4\r\nones\r\n$1\r\n0\r\n$1\r\n0\r\n$2\r\n-1\r\n", b":-1\r\n").await;
    c.expect(b"*3\r\n$6\r\nBITPOS\r\n$5\r\nnokey\r\n$1\r\n0\r\n", b":0\r\n").await;
    c.expect(b"*3\r\n$6\r\nBITPOS\r\n$5\r\nnokey\r\n$1\r\n1\r\n", b":-1\r\n").await;
    c.expect(b"*3\r\n$6\r\nBITPOS\r\n$1\r\nk\r\n$1\r\n2\r\n", b"-ERR The bit argument must be 1 or 0.\r\n").await;
    c.expect(b"*7\r\n$6\r\nBITPOS\r\n$1\r\nk\r\n$1\r\n1\r\n$1\r\n0\r\n$1\r\n1\r\n$3\r\nBIT\r\n$1\r\nx\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*3\r\n$6\r\nBITPOS\r\n$1\r\nh\r\n$1\r\n1\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*5\r\n$5\r\nBITOP\r\n$3\r\nAND\r\n$1\r\nd\r\n$1\r\na\r\n$1\r\nb\r\n", b":3\r\n").await;
    c.expect(b"*2\r\n$3\r\nGET\r\n$1\r\nd\r\n", b"$3\r\n``\x00\r\n").await;
    c.expect(b"*6\r\n$5\r\nBITOP\r\n$2\r\nOR\r\n$1\r\nd\r\n$1\r\na\r\n$1\r\nb\r\n$5\r\nnokey\r\n", b":3\r\n").await;
    c.expect(b"*2\r\n$3\r\nGET\r\n$1\r\nd\r\n", b"$3\r\ny{c\r\n").await;
    c.expect(b"*5\r\n$5\r\nBITOP\r\n$3\r\nXOR\r\n$1\r\nd\r\n$1\r\na\r\n$1\r\nb\r\n", b":3\r\n").await;
    c.expect(b"*2\r\n$3\r\nGET\r\n$1\r\nd\r\n", b"$3\r\n\x19\x1bc\r\n").await;
    c.expect(b"*4\r\n$5\r\nBITOP\r\n$3\r\nNOT\r\n$1\r\nd\r\n$1\r\na\r\n", b":3\r\n").await;
    c.expect(b"*2\r\n$3\r\nGET\r\n$1\r\nd\r\n", b"$3\r\n\x9e\x9d\x9c\r\n").await;
    c.expect(b"*5\r\n$5\r\nBITOP\r\n$3\r\nNOT\r\n$1\r\nd\r\n$1\r\na\r\n$1\r\nb\r\n", b"-ERR BITOP NOT must be called with a single source key.\r\n").await;
    c.expect(b"*4\r\n$5\r\nBITOP\r\n$4\r\nNAND\r\n$1\r\nd\r\n$1\r\na\r\n", b"-ERR syntax error\r\n").await;
    c.expect(b"*5\r\n$5\r\nBITOP\r\n$3\r\nAND\r\n$1\r\nd\r\n$1\r\na\r\n$1\r\nh\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n").await;
    c.expect(b"*3\r\n$6\r\nEXPIRE\r\n$1\r\nd\r\n$3\r\n100\r\n", b":1\r\n").await;
    c.expect(b"*5\r\n$5\r\nBITOP\r\n$3\r\nAND\r\n$1\r\nd\r\n$5\r\nnokey\r\n$6\r\nnokey2\r\n", b":0\r\n").await;
    c.expect(b"*2\r\n$6\r\nEXISTS\r\n$1\r\nd\r\n", b":0\r\n").await;
    c.expect(b"*4\r\n$5\r\nBITOP\r\n$2\r\nOR\r\n$1\r\nd\r\n$1\r\na\r\n", b":3\r\n").await;
    c.expect(b"*2\r\n$3\r\nTTL\r\n$1\r\nd\r\n", b":-1\r\n").await;
    c.expect(b"*3\r\n$5\r\nBITOP\r\n$3\r\nAND\r\n$1\r\nd\r\n", b"-ERR wrong number of arguments for 'bitop' command\r\n").await;
    server.stop().await;
}
