//! Lua scripting at the wire: EVAL, EVALSHA, SCRIPT LOAD/EXISTS/FLUSH/KILL, `redis.call` and
//! `redis.pcall`, reply conversion both ways, global protection, BUSY and SCRIPT KILL.

mod common;

use common::{encode, TestServer};
use std::time::Duration;

fn eval(script: &str, keys: &[&str], argv: &[&str]) -> Vec<u8> {
    let numkeys = keys.len().to_string();
    let mut args: Vec<&[u8]> = vec![b"EVAL", script.as_bytes(), numkeys.as_bytes()];
    args.extend(keys.iter().map(|k| k.as_bytes()));
    args.extend(argv.iter().map(|a| a.as_bytes()));
    encode(&args)
}

#[tokio::test]
async fn eval_converts_replies_both_ways() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(&eval("return 1", &[], &[]), b":1\r\n").await;
    c.expect(&eval("return 3.99", &[], &[]), b":3\r\n").await;
    c.expect(&eval("return 'x'", &[], &[]), b"$1\r\nx\r\n").await;
    c.expect(&eval("return nil", &[], &[]), b"$-1\r\n").await;
    c.expect(&eval("return true", &[], &[]), b":1\r\n").await;
    c.expect(&eval("return false", &[], &[]), b"$-1\r\n").await;
    c.expect(&eval("return {1, 'two', {3}, nil, 5}", &[], &[]), b"*3\r\n:1\r\n$3\r\ntwo\r\n*1\r\n:3\r\n").await;
    c.expect(&eval("return redis.status_reply('FINE')", &[], &[]), b"+FINE\r\n").await;
    c.expect(&eval("return redis.error_reply('MY error')", &[], &[]), b"-MY error\r\n").await;
    c.expect(&eval("return {KEYS[1], ARGV[1], ARGV[2]}", &["k"], &["a", "b"]), b"*3\r\n$1\r\nk\r\n$1\r\na\r\n$1\r\nb\r\n").await;
    c.expect(&eval("return redis.sha1hex('')", &[], &[]), b"$40\r\nda39a3ee5e6b4b0d3255bfef95601890afd80709\r\n").await;
    // redis.call: commands and their replies as Lua values.
    c.expect(&eval("return redis.call('set', KEYS[1], ARGV[1])", &["k"], &["v"]), b"+OK\r\n").await;
    c.expect(&eval("return redis.call('get', KEYS[1])", &["k"], &[]), b"$1\r\nv\r\n").await;
    c.expect(&eval("return redis.call('get', 'missing') == false", &[], &[]), b":1\r\n").await;
    c.expect(&eval("return redis.call('rpush', 'l', 1, 2.5, 'x')", &[], &[]), b":3\r\n").await;
    c.expect(&eval("return redis.call('lrange', 'l', 0, -1)", &[], &[]), b"*3\r\n$1\r\n1\r\n$3\r\n2.5\r\n$1\r\nx\r\n").await;
    c.expect(&eval("return redis.call('ping').ok", &[], &[]), b"$4\r\nPONG\r\n").await;
    // Errors: call raises, pcall returns the error table.
    c.expect(&eval("return redis.call('incr', KEYS[1])", &["k"], &[]), b"-ERR value is not an integer or out of range\r\n").await;
    c.expect(&eval("local r = redis.pcall('incr', KEYS[1]); return r.err", &["k"], &[]), b"$43\r\nERR value is not an integer or out of range\r\n").await;
    c.expect(&eval("return redis.call('nosuch')", &[], &[]), b"-ERR Unknown Redis command called from script\r\n").await;
    c.expect(&eval("return redis.call('multi')", &[], &[]), b"-ERR This Redis command is not allowed from script\r\n").await;
    c.expect(&eval("return redis.call('get', {})", &[], &[]), b"-ERR Lua redis lib command arguments must be strings or integers\r\n").await;
    c.expect(&eval("x = 1", &[], &[]), b"-ERR user_script:1: Attempt to modify a readonly table\r\n").await;
    c.expect(&eval("return y", &[], &[]), b"-ERR user_script:1: Script attempted to access nonexistent global variable 'y'\r\n").await;
    c.send(&eval("return (", &[], &[])).await;
    let reply = String::from_utf8(c.next_reply().await).unwrap();
    assert!(reply.starts_with("-ERR Error compiling script (new function): user_script:1: "), "{reply}");
    c.expect(&eval("return 1", &[], &["a"]), b":1\r\n").await;
    c.expect(b"EVAL x -1\r\n", b"-ERR Number of keys can't be negative\r\n").await;
    c.expect(b"EVAL x 2 k\r\n", b"-ERR Number of keys can't be greater than number of args\r\n").await;
    c.expect(b"EVAL x y\r\n", b"-ERR value is not an integer or out of range\r\n").await;
    // Scripts see the selected database, and run inside MULTI.
    c.expect(b"SELECT 2\r\n", b"+OK\r\n").await;
    c.expect(&eval("return redis.call('get', 'k')", &[], &[]), b"$-1\r\n").await;
    c.send(b"MULTI\r\n").await;
    c.expect(b"", b"+OK\r\n").await;
    c.send(&eval("return redis.call('incr', 'n')", &[], &[])).await;
    c.expect(b"", b"+QUEUED\r\n").await;
    c.expect(b"EXEC\r\n", b"*1\r\n:1\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn script_cache() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let sha = "e0e1f9fabfc9d4800c877a703b823ac0578ff8db"; // sha1("return 1")
    c.expect(b"SCRIPT LOAD \"return 1\"\r\n", format!("$40\r\n{sha}\r\n").as_bytes()).await;
    c.expect(format!("EVALSHA {sha} 0\r\n").as_bytes(), b":1\r\n").await;
    c.expect(format!("EVALSHA {} 0\r\n", sha.to_uppercase()).as_bytes(), b":1\r\n").await;
    c.expect(format!("SCRIPT EXISTS {sha} ffff\r\n").as_bytes(), b"*2\r\n:1\r\n:0\r\n").await;
    c.expect(b"SCRIPT FLUSH\r\n", b"+OK\r\n").await;
    c.expect(format!("EVALSHA {sha} 0\r\n").as_bytes(), b"-NOSCRIPT No matching script. Please use EVAL.\r\n").await;
    // EVAL caches the script too.
    c.expect(b"EVAL \"return 1\" 0\r\n", b":1\r\n").await;
    c.expect(format!("EVALSHA {sha} 0\r\n").as_bytes(), b":1\r\n").await;
    c.expect(b"SCRIPT LOAD \"return (\"\r\n", b"-ERR Error compiling script").await;
    c.read_until(b"\r\n").await;
    c.expect(b"SCRIPT KILL\r\n", b"-NOTBUSY No scripts in execution right now.\r\n").await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn busy_script_and_script_kill() {
    let server = TestServer::start().await;
    let mut looping = server.client().await;
    let mut other = server.client().await;
    looping.send(&eval("local i = 0 while true do i = i + 1 end", &[], &[])).await;
    tokio::time::sleep(Duration::from_millis(5300)).await;
    other.expect(b"GET k\r\n", b"-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n").await;
    other.expect(b"SCRIPT KILL\r\n", b"+OK\r\n").await;
    looping.expect(b"", b"-ERR Script killed by user with SCRIPT KILL...\r\n").await;
    other.expect(b"GET k\r\n", b"$-1\r\n").await;
    looping.expect(b"PING\r\n", b"+PONG\r\n").await;
    server.stop().await;
}

/// A script that catches the kill with pcall, over and over, still ends at SCRIPT KILL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn script_kill_is_not_caught_by_pcall() {
    let server = TestServer::start().await;
    let mut looping = server.client().await;
    let mut other = server.client().await;
    other.expect(b"CONFIG SET lua-time-limit 10\r\n", b"+OK\r\n").await;
    let script = "local f = function() while 1 do redis.call('ping') end end while 1 do pcall(f) end";
    looping.send(&eval(script, &[], &[])).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    other.expect(b"SCRIPT KILL\r\n", b"+OK\r\n").await;
    looping.expect(b"", b"-ERR Script killed by user with SCRIPT KILL...\r\n").await;
    other.expect(b"PING\r\n", b"+PONG\r\n").await;
    // pcall goes on catching errors in the next script.
    looping.expect(&eval("return tostring(pcall(error, 'x'))", &[], &[]), b"$5\r\nfalse\r\n").await;
    server.stop().await;
}

#[tokio::test]
async fn functions_and_read_only_scripts() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let library = "#!lua name=mylib\nredis.register_function('hello', function(keys, args) return 'hi ' .. args[1] .. #keys end)\n\
                   redis.register_function{function_name='peek', callback=function(keys) return redis.call('get', keys[1]) end, flags={'no-writes'}}";
    c.expect(&encode(&[b"FUNCTION", b"LOAD", library.as_bytes()]), b"$5\r\nmylib\r\n").await;
    c.expect(&encode(&[b"FUNCTION", b"LOAD", library.as_bytes()]), b"-ERR Library 'mylib' already exists\r\n").await;
    c.expect(&encode(&[b"FUNCTION", b"LOAD", b"REPLACE", library.as_bytes()]), b"$5\r\nmylib\r\n").await;
    c.expect(&encode(&[b"FUNCTION", b"LOAD", b"return 1"]), b"-ERR Missing library metadata\r\n").await;
    c.expect(&encode(&[b"FUNCTION", b"LOAD", b"#!lua name=empty\nlocal x = 1"]), b"-ERR No functions registered\r\n").await;
    c.expect(b"FCALL hello 2 a b world\r\n", b"$9\r\nhi world2\r\n").await;
    c.expect(b"SET k v\r\nFCALL_RO peek 1 k\r\n", b"+OK\r\n$1\r\nv\r\n").await;
    c.expect(b"FCALL_RO hello 0 x\r\n", b"-ERR Can not execute a script with write flag using *_ro command.\r\n").await;
    c.expect(b"FCALL nope 0\r\n", b"-ERR Function not found\r\n").await;
    // Read-only scripts may read but not write; a SELECT inside a script stays inside it.
    c.expect(&eval("return redis.call('get', 'k')", &[], &[]), b"$1\r\nv\r\n").await;
    c.expect(&encode(&[b"EVAL_RO", b"return redis.call('set', 'k', 'x')", b"0"]), b"-ERR Write commands are not allowed from read-only scripts.\r\n").await;
    c.expect(&encode(&[b"EVAL_RO", b"return redis.call('get', 'k')", b"0"]), b"$1\r\nv\r\n").await;
    c.expect(&eval("redis.call('select', 5) return redis.call('set', 'k', 'five')", &[], &[]), b"+OK\r\n").await;
    c.expect(b"GET k\r\n", b"$1\r\nv\r\n").await;
    c.expect(&eval("return redis.call('blpop', 'l', 0)", &[], &[]), b"-ERR This Redis command is not allowed from script\r\n").await;
    c.expect(b"FUNCTION DELETE mylib\r\nFCALL hello 0 x\r\n", b"+OK\r\n-ERR Function not found\r\n").await;
    c.expect(b"FUNCTION DELETE mylib\r\n", b"-ERR Library not found\r\n").await;
    server.stop().await;
}

/// RESP3 inside scripts (`redis.setresp(3)`), each type read from DEBUG PROTOCOL and written
/// back in the client's protocol, as Redis' scripting tests check them.
#[tokio::test]
async fn scripts_read_and_write_resp3() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"DEBUG SET-DISABLE-DENY-SCRIPTS 1\r\n", b"+OK\r\n").await;
    let call = |kind: &str, resp: u8| eval(&format!("redis.setresp({resp}); return redis.call('debug', 'protocol', '{kind}')"), &[], &[]);
    // A RESP2 client gets RESP2 whatever the script spoke.
    c.expect(&call("double", 3), b"$5\r\n3.141\r\n").await;
    // A map is a Lua table (in Lua's order) and a flat array to a RESP2 client.
    let map = "redis.setresp(3); local m = redis.call('debug', 'protocol', 'map').map; return {tostring(m[0]), tostring(m[1]), tostring(m[2])}";
    c.expect(&eval(map, &[], &[]), b"*3\r\n$5\r\nfalse\r\n$4\r\ntrue\r\n$5\r\nfalse\r\n").await;
    assert!(c.call(&[b"EVAL", b"redis.setresp(3); return redis.call('debug', 'protocol', 'map')", b"0"]).await.starts_with(b"*6\r\n"));
    c.expect(&call("true", 3), b":1\r\n").await;
    c.expect(&call("false", 3), b":0\r\n").await;
    c.expect(&call("null", 3), b"$-1\r\n").await;
    c.expect(&eval("return {big_number='123\\r\\n123'}", &[], &[]), b"$8\r\n123  123\r\n").await;
    c.expect(b"HELLO 3\r\n", b"%").await;
    c.read_until(b"modules\r\n*0\r\n").await;
    c.expect(&call("bignum", 3), b"(1234567999999999999999999999999999999\r\n").await;
    c.expect(&call("bignum", 2), b"$37\r\n1234567999999999999999999999999999999\r\n").await;
    // A set's members come in Lua's order.
    assert!(c.call(&[b"EVAL", b"redis.setresp(3); return redis.call('debug', 'protocol', 'set')", b"0"]).await.starts_with(b"~3\r\n"));
    c.expect(&call("verbatim", 3), b"=29\r\ntxt:This is a verbatim\nstring\r\n").await;
    c.expect(&call("true", 3), b"#t\r\n").await;
    c.expect(&call("null", 2), b"_\r\n").await;
    c.expect(&call("attrib", 3), b"$39\r\nSome real reply following the attribute\r\n").await;
    c.expect(&eval("redis.setresp(4)", &[], &[]), b"-ERR RESP version must be 2 or 3.\r\n").await;
    c.expect(b"DEBUG SET-DISABLE-DENY-SCRIPTS 0\r\n", b"+OK\r\n").await;
    c.expect(&call("true", 3), b"-ERR This Redis command is not allowed from script\r\n").await;
    server.stop().await;
}

/// Large arguments and results go through Lua's bounded stack one value at a time; a table
/// that holds itself is cut with Redis' error; arity is checked with the script's wording.
#[tokio::test]
async fn large_and_recursive_values() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(&eval("local a = {} for i=1,7999 do a[i] = 1 end return redis.call('lpush', 'l', unpack(a))", &[], &[]), b":7999\r\n").await;
    c.expect(&eval("local t = {} for i=1,20000 do t[i] = i end return #redis.call('lrange', 'l', 0, -1) + #t", &[], &[]), b":27999\r\n").await;
    let map = "local m = {} for i=1,100000 do m[tostring(i)] = i end local d = cmsgpack.unpack(cmsgpack.pack(m)) return d['77777']";
    c.expect(&eval(map, &[], &[]), b":77777\r\n").await;
    let reply = c.call(&[b"EVAL", b"local a = {} a[1] = a return a", b"0"]).await;
    assert!(reply.starts_with(b"*1\r\n*1\r\n") && reply.ends_with(b"-ERR reached lua stack limit\r\n"), "{}", String::from_utf8_lossy(&reply[reply.len() - 40..]));
    c.expect(&eval("return redis.call('set', 'x')", &[], &[]), b"-ERR Wrong number of args calling Redis command from script\r\n").await;
    c.expect(&eval("return redis.sha1hex()", &[], &[]), b"-ERR wrong number of arguments\r\n").await;
    c.expect(&eval("return redis.acl_check_cmd('set', 'k', 1)", &[], &[]), b":1\r\n").await;
    c.expect(&eval("return redis.acl_check_cmd('nosuch')", &[], &[]), b"-ERR Invalid command passed to redis.acl_check_cmd()\r\n").await;
    server.stop().await;
}

/// A script sees one time from its first command to its last, as in Redis: a key set to
/// expire in 1 ms is still there after a sleep inside the script. DEBUG OBJECT sees a key
/// past its expiry that nothing has touched yet.
#[tokio::test]
async fn a_script_runs_at_one_time() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"DEBUG SET-DISABLE-DENY-SCRIPTS 1\r\n", b"+OK\r\n").await;
    let script = "redis.call('set', 'key', 'v', 'px', 1) redis.call('debug', 'sleep', 0.02) return redis.call('exists', 'key')";
    c.expect(&eval(script, &[], &[]), b":1\r\n").await;
    c.expect(b"DEBUG SET-ACTIVE-EXPIRE 0\r\n", b"+OK\r\n").await;
    c.expect(b"SET key v PX 1\r\n", b"+OK\r\n").await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    c.expect(b"DEBUG OBJECT key\r\n", b"+Value at:").await;
    c.read_until(b"\r\n").await;
    c.expect(&eval("return redis.call('exists', 'key')", &[], &[]), b":0\r\n").await;
    server.stop().await;
}

/// SORT BY a constant does not sort; a set is then sorted as bytes inside a script (as
/// Redis does, so a script's result is the same every run); GET reads the named keys (its
/// refusal to a user without every key is in acl.rs).
#[tokio::test]
async fn sort_by_constant_and_get_in_scripts() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    c.expect(b"SADD s b c a\r\n", b":3\r\n").await;
    c.expect(b"SET w_a 1\r\n", b"+OK\r\n").await;
    c.expect(b"HSET h_c f hc\r\n", b":1\r\n").await;
    c.expect(&eval("return redis.call('sort', KEYS[1], 'by', '_')", &["s"], &[]), b"*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n").await;
    c.expect(
        b"SORT s ALPHA GET # GET w_* GET h_*->f\r\n",
        b"*9\r\n$1\r\na\r\n$1\r\n1\r\n$-1\r\n$1\r\nb\r\n$-1\r\n$-1\r\n$1\r\nc\r\n$-1\r\n$2\r\nhc\r\n",
    )
    .await;
    server.stop().await;
}
