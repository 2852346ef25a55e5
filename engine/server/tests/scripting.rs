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
