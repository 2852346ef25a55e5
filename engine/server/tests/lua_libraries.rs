//! The Lua libraries Redis scripts have (bit, cjson, cmsgpack) at the wire through EVAL: exact
//! bytes, each the reply redis-server 7.0.15 gave to the same script.

mod common;

use common::TestServer;

#[tokio::test]
async fn bit_cjson_cmsgpack_as_redis() {
    // LuaBitOp conversions and tohex, cjson arrays/objects/escapes/%.14g numbers/null/decode errors, cmsgpack integer widths, float32 vs float64, nesting cut at 16, unpack_one/unpack_limit offsets.
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$19\r\nreturn bit.tobit(1)\r\n$1\r\n0\r\n", b":1\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$220\r\nreturn {bit.band(0xff, 0x0f), bit.bor(1,2,4,8,16,32,64,128), bit.bxor(1,2), bit.bnot(0), bit.lshift(1, 31), bit.rshift(-1, 28), bit.arshift(-256, 4), bit.rol(0x12345678, 8), bit.ror(0x12345678, 8), bit.bswap(0x12345678)}\r\n$1\r\n0\r\n", b"*10\r\n:15\r\n:255\r\n:3\r\n:-1\r\n:-2147483648\r\n:15\r\n:-16\r\n:878082066\r\n:2014458966\r\n:2018915346\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$172\r\nreturn {bit.tohex(65535, -2147483648), bit.tohex(255), bit.tohex(-1, 4), bit.tohex(0x1234, -3), bit.tobit(2^32 + 5), bit.tobit(-1.5), bit.tobit(2.5), bit.tobit(0xffffffff)}\r\n$1\r\n0\r\n", b"*8\r\n$8\r\n0000FFFF\r\n$8\r\n000000ff\r\n$4\r\nffff\r\n$3\r\n234\r\n:5\r\n:-2\r\n:2\r\n:-1\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$62\r\nreturn cjson.encode({1, 2, 'three', true, false, {a = 'b/c'}})\r\n$1\r\n0\r\n", b"$37\r\n[1,2,\"three\",true,false,{\"a\":\"b\\/c\"}]\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$39\r\nreturn cjson.encode({[1]='a', [3]='c'})\r\n$1\r\n0\r\n", b"$14\r\n[\"a\",null,\"c\"]\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$54\r\nreturn cjson.encode('\"quote\\\\ \\n tab\\t ctl\\1 del\\127')\r\n$1\r\n0\r\n", b"$40\r\n\"\\\"quote\\\\ \\n tab\\t ctl\\u0001 del\\u007f\"\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$23\r\nreturn cjson.encode({})\r\n$1\r\n0\r\n", b"$2\r\n{}\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$24\r\nreturn cjson.encode(0.1)\r\n$1\r\n0\r\n", b"$3\r\n0.1\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$39\r\nreturn cjson.encode(123456789012345678)\r\n$1\r\n0\r\n", b"$19\r\n1.2345678901235e+17\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$26\r\nreturn cjson.encode(1e300)\r\n$1\r\n0\r\n", b"$6\r\n1e+300\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$33\r\nreturn cjson.encode(-0.000012345)\r\n$1\r\n0\r\n", b"$11\r\n-1.2345e-05\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$43\r\nreturn cjson.encode({x = 3.14159265358979})\r\n$1\r\n0\r\n", b"$21\r\n{\"x\":3.1415926535898}\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$31\r\nreturn cjson.encode(cjson.null)\r\n$1\r\n0\r\n", b"$4\r\nnull\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$34\r\nreturn cjson.encode({[2.5] = 'x'})\r\n$1\r\n0\r\n", b"$11\r\n{\"2.5\":\"x\"}\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$104\r\ncjson.encode_max_depth(1) local ok, e = pcall(cjson.encode, {{1}}) cjson.encode_max_depth(1000) return e\r\n$1\r\n0\r\n", b"$39\r\nCannot serialise, excessive nesting (2)\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$79\r\nreturn table.concat(cjson.decode('[0.0, -5e3, -1, 0.3e-3, 1023.2, 0e10]'), ' ')\r\n$1\r\n0\r\n", b"$26\r\n0 -5000 -1 0.0003 1023.2 0\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$161\r\nlocal d = cjson.decode('{\"a\": [1, 2, {\"b\": null}], \"c\": \"\\u00e9\\ud83d\\ude00\\/x\"}') return {d.a[1], d.a[2], type(d.a[3].b), d.c, tostring(d.a[3].b == cjson.null)}\r\n$1\r\n0\r\n", b"*5\r\n:1\r\n:2\r\n$8\r\nuserdata\r\n$17\r\nu00e9ud83dude00/x\r\n$4\r\ntrue\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$130\r\ncjson.decode_max_depth(1) local ok, e = pcall(cjson.decode, '{\"obj\": {\"array\": [1,2,3,4]}}') cjson.decode_max_depth(1000) return e\r\n$1\r\n0\r\n", b"$56\r\nFound too many nested data structures (2) at character 9\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$68\r\nreturn cjson.encode(cjson.decode('{\"k\":[true,false,null,\"s\",1.5]}'))\r\n$1\r\n0\r\n", b"$31\r\n{\"k\":[true,false,null,\"s\",1.5]}\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$107\r\ncjson.encode_number_precision(3) local s = cjson.encode(3.14159) cjson.encode_number_precision(14) return s\r\n$1\r\n0\r\n", b"$4\r\n3.14\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$121\r\nlocal e = cmsgpack.pack(0.1) local h = '' for i = 1, #e do h = h .. string.format('%02x', string.byte(e, i)) end return h\r\n$1\r\n0\r\n", b"$18\r\ncb3fb999999999999a\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$291\r\nlocal e = cmsgpack.pack(-1099511627776, 1, 127, 128, 255, 256, 65535, 65536, 4294967296, -1, -32, -33, -128, -129, -32768, -32769, 2^31, -2^31-1, 1.5, 2^64, true, false, nil, 'hi', {1,2}, {a=1}, {}) local h = '' for i = 1, #e do h = h .. string.format('%02x', string.byte(e, i)) end return h\r\n$1\r\n0\r\n", b"$180\r\nd3ffffff0000000000017fcc80ccffcd0100cdffffce00010000cf0000000100000000ffe0d0dfd080d1ff7fd18000d2ffff7fffce80000000d3ffffffff7fffffffca3fc00000ca5f800000c3c2c0a2686992010281a1610190\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$76\r\nlocal e = cmsgpack.pack(string.rep('x', 40), string.rep('y', 300)) return #e\r\n$1\r\n0\r\n", b":345\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$168\r\nlocal a = {x=nil,y=5} local b = {x=a} a['x'] = b local e = cmsgpack.pack(a) local h = '' for i = 1, #e do h = h .. string.format('%02x', string.byte(e, i)) end return h\r\n$1\r\n0\r\n", b"$146\r\n82a17905a17881a17882a17905a17881a17882a17905a17881a17882a17905a17881a17882a17905a17881a17882a17905a17881a17882a17905a17881a17882a17905a17881a178c0\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$112\r\nlocal t = cmsgpack.unpack(cmsgpack.pack({1, 'two', {k = 'v'}, 3.5})) return {t[1], t[2], t[3].k, tostring(t[4])}\r\n$1\r\n0\r\n", b"*4\r\n:1\r\n$3\r\ntwo\r\n$1\r\nv\r\n$3\r\n3.5\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$70\r\nlocal o, v = cmsgpack.unpack_one(cmsgpack.pack(1, 2), 0) return {o, v}\r\n$1\r\n0\r\n", b"*2\r\n:1\r\n:1\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$154\r\nlocal e = cmsgpack.pack('a', 'b', 'c') local o, x, y = cmsgpack.unpack_limit(e, 2, 0) local o2, z = cmsgpack.unpack_limit(e, 1, o) return {o, x, y, o2, z}\r\n$1\r\n0\r\n", b"*5\r\n:4\r\n$1\r\na\r\n$1\r\nb\r\n:-1\r\n$1\r\nc\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$34\r\nreturn cmsgpack.unpack('\\xcd\\x01')\r\n$1\r\n0\r\n", b":120\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$30\r\nreturn cmsgpack.unpack('\\xc1')\r\n$1\r\n0\r\n", b":120\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$44\r\nreturn {cmsgpack.unpack('\\x93\\x01\\x02\\x03')}\r\n$1\r\n0\r\n", b"*12\r\n:120\r\n:57\r\n:51\r\n:120\r\n:48\r\n:49\r\n:120\r\n:48\r\n:50\r\n:120\r\n:48\r\n:51\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$86\r\nlocal m = {} for i=1,20 do m[tostring(i)] = i end local e = cmsgpack.pack(m) return #e\r\n$1\r\n0\r\n", b":74\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn library_errors_are_script_errors() {
    // Errors raised by the libraries reach the client as -ERR with lua-cjson's / LuaBitOp's text
    // (Redis adds the script position and " script: <sha>, on @user_script:1."; Basalt's script
    // errors do not carry that suffix).
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"EVAL \"return cjson.encode(function() end)\" 0\r\n", b"-ERR Cannot serialise function: type not supported\r\n").await;
    c.expect(b"EVAL \"return cjson.decode('[1, 2')\" 0\r\n", b"-ERR Expected comma or array end but found T_END at character 6\r\n").await;
    c.expect(b"EVAL \"return bit.band('x')\" 0\r\n", b"-ERR bad argument #1 (number expected, got string)\r\n").await;
    c.expect(b"*3\r\n$4\r\nEVAL\r\n$55\r\nlocal ok, e = pcall(cmsgpack.unpack, '\\205\\1') return e\r\n$1\r\n0\r\n", b"$23\r\nMissing bytes in input.\r\n").await;
    server.stop().await;
}
