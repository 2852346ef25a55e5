//! The memcached text protocol at the wire, byte for byte as memcached 1.6 answers, over the
//! same store as RESP; ASCII auth and the user's ACL when the default user has a password;
//! and the items after a restart (the recovery scenario of this file).

mod security_support;

use security_support::{start, TempDir};

#[tokio::test]
async fn commands_byte_exact_and_shared_with_resp() {
    let dir = TempDir::new("mc");
    for round in 0..2 {
        let server = start(&dir, &[("memcached-port", "0")]).await;
        let mut mc = server.memcache().await;
        let mut resp = server.client().await;
        if round == 1 {
            // After a restart the items are back (stored last with flags 0; flags that survive a
            // crash are checked in memcache_flags_restart.rs).
            mc.expect("get a counter\r\n", "VALUE a 0 5\r\nhello\r\nVALUE counter 0 2\r\n12\r\nEND\r\n").await;
            server.stop().await;
            break;
        }
        mc.expect("set a 7 0 5\r\nhello\r\n", "STORED\r\n").await;
        mc.expect("get a missing\r\n", "VALUE a 7 5\r\nhello\r\nEND\r\n").await;
        assert_eq!(resp.call(&["GET", "a"]).await, "$5\r\nhello\r\n");
        assert_eq!(resp.call(&["SET", "r", "from-resp"]).await, "+OK\r\n");
        mc.expect("get r\r\n", "VALUE r 0 9\r\nfrom-resp\r\nEND\r\n").await;

        mc.expect("add a 0 0 1\r\nx\r\n", "NOT_STORED\r\n").await;
        mc.expect("add b 0 0 1\r\nx\r\n", "STORED\r\n").await;
        mc.expect("replace nope 0 0 1\r\nx\r\n", "NOT_STORED\r\n").await;
        mc.expect("replace b 3 0 2\r\nyy\r\n", "STORED\r\n").await;
        mc.expect("append b 0 0 2\r\nzz\r\n", "STORED\r\n").await;
        mc.expect("prepend b 0 0 2\r\naa\r\n", "STORED\r\n").await;
        mc.expect("get b\r\n", "VALUE b 3 6\r\naayyzz\r\nEND\r\n").await;
        mc.expect("append nope 0 0 1\r\nx\r\n", "NOT_STORED\r\n").await;

        // gets / cas: the unique changes on every write, also a RESP one.
        mc.send(b"gets a\r\n").await;
        let head = mc.read_exact_text("VALUE a 7 5 ".len()).await;
        assert_eq!(head, "VALUE a 7 5 ");
        let mut unique = String::new();
        loop {
            let c = mc.read_exact_text(1).await;
            if c == "\r" {
                break;
            }
            unique.push_str(&c);
        }
        assert_eq!(mc.read_exact_text("\nhello\r\nEND\r\n".len()).await, "\nhello\r\nEND\r\n");
        mc.expect(&format!("cas a 1 0 3 {}\r\nnew\r\n", unique.parse::<u64>().unwrap() + 1000), "EXISTS\r\n").await;
        mc.expect(&format!("cas a 1 0 3 {unique}\r\nnew\r\n"), "STORED\r\n").await;
        mc.expect(&format!("cas a 1 0 3 {unique}\r\nold\r\n"), "EXISTS\r\n").await;
        mc.expect("cas missing 0 0 1 1\r\nx\r\n", "NOT_FOUND\r\n").await;
        mc.expect("get a\r\n", "VALUE a 1 3\r\nnew\r\nEND\r\n").await;

        mc.expect("set counter 0 0 2\r\n10\r\n", "STORED\r\n").await;
        mc.expect("incr counter 5\r\n", "15\r\n").await;
        mc.expect("decr counter 100\r\n", "0\r\n").await;
        mc.expect("incr counter 18446744073709551615\r\n", "18446744073709551615\r\n").await;
        mc.expect("incr counter 1\r\n", "0\r\n").await;
        mc.expect("incr counter 12\r\n", "12\r\n").await;
        mc.expect("incr a 1\r\n", "CLIENT_ERROR cannot increment or decrement non-numeric value\r\n").await;
        mc.expect("incr nope 1\r\n", "NOT_FOUND\r\n").await;
        mc.expect("incr counter x\r\n", "CLIENT_ERROR invalid numeric delta argument\r\n").await;

        mc.expect("touch b 100\r\n", "TOUCHED\r\n").await;
        assert_eq!(resp.call(&["TTL", "b"]).await, ":100\r\n");
        mc.expect("touch nope 1\r\n", "NOT_FOUND\r\n").await;
        mc.expect("gat 0 b\r\n", "VALUE b 3 6\r\naayyzz\r\nEND\r\n").await;
        assert_eq!(resp.call(&["TTL", "b"]).await, ":-1\r\n");
        mc.expect("set gone 0 -1 1\r\nx\r\n", "STORED\r\n").await;
        mc.expect("get gone\r\n", "END\r\n").await;

        mc.expect("delete b\r\n", "DELETED\r\n").await;
        mc.expect("delete b\r\n", "NOT_FOUND\r\n").await;
        mc.expect("delete b 5\r\n", "CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]\r\n").await;

        // noreply: no answer, but the write happened (the next reply proves the order).
        mc.expect("set q 0 0 1 noreply\r\nq\r\nget q\r\n", "VALUE q 0 1\r\nq\r\nEND\r\n").await;
        mc.expect("version\r\n", &format!("VERSION {}\r\n", basalt_server::memcache::VERSION)).await;
        mc.expect("verbosity 1\r\n", "OK\r\n").await;
        mc.expect("bogus\r\n", "ERROR\r\n").await;
        // As memcached: the 5 bytes after the line are the block; the "\r\n" left is an empty command.
        mc.expect("set k 0 0 3\r\nabcde\r\n", "CLIENT_ERROR bad data chunk\r\nERROR\r\n").await;
        mc.send(format!("set big 0 0 {}\r\n{}\r\n", 2 << 20, "x".repeat(2 << 20)).as_bytes()).await;
        assert_eq!(mc.read_until("\r\n").await, "SERVER_ERROR object too large for cache\r\n");
        mc.expect(&format!("get {}\r\n", "k".repeat(251)), "CLIENT_ERROR bad command line format\r\n").await;
        mc.send(b"stats\r\n").await;
        let stats = mc.read_until("END\r\n").await;
        assert!(stats.contains("STAT cmd_get ") && stats.ends_with("END\r\n"), "{stats}");
        // Pipelined: every reply, in order.
        mc.expect("set p1 0 0 1\r\n1\r\nset p2 0 0 1\r\n2\r\nget p1 p2\r\n", "STORED\r\nSTORED\r\nVALUE p1 0 1\r\n1\r\nVALUE p2 0 1\r\n2\r\nEND\r\n").await;
        mc.expect("flush_all\r\n", "OK\r\n").await;
        mc.expect("get p1\r\n", "END\r\n").await;
        mc.expect("set a 0 0 5\r\nhello\r\nset counter 0 0 2\r\n12\r\n", "STORED\r\nSTORED\r\n").await;
        mc.send(b"quit\r\n").await;
        assert_eq!(mc.until_closed().await, "");
        server.stop().await;
    }
}

#[tokio::test]
async fn ascii_auth_and_acl() {
    let dir = TempDir::new("mc-auth");
    let server = start(&dir, &[("memcached-port", "0"), ("requirepass", "pw")]).await;
    let mut admin = server.client().await;
    assert_eq!(admin.call(&["AUTH", "pw"]).await, "+OK\r\n");
    assert_eq!(admin.call(&["ACL", "SETUSER", "ro", "on", ">ropw", "~*", "+@read"]).await, "+OK\r\n");
    assert_eq!(admin.call(&["SET", "k", "v"]).await, "+OK\r\n");

    let mut anon = server.memcache().await;
    anon.expect("get k\r\n", "CLIENT_ERROR unauthenticated\r\n").await;
    assert_eq!(anon.until_closed().await, "");

    let mut ro = server.memcache().await;
    ro.expect("set auth 0 0 7\r\nro nope\r\n", "CLIENT_ERROR authentication failure\r\n").await;
    ro.expect("set auth 0 0 7\r\nro ropw\r\n", "STORED\r\n").await;
    ro.expect("get k\r\n", "VALUE k 0 1\r\nv\r\nEND\r\n").await;
    ro.expect("set k 0 0 1\r\nx\r\n", "CLIENT_ERROR NOPERM User ro has no permissions to run the 'set' command\r\n").await;
    ro.expect("delete k\r\n", "CLIENT_ERROR NOPERM User ro has no permissions to run the 'del' command\r\n").await;
    assert_eq!(admin.call(&["GET", "k"]).await, "$1\r\nv\r\n");

    // Key patterns: every key of a request is checked, a get's too.
    assert_eq!(admin.call(&["ACL", "SETUSER", "mc", "on", ">mcpw", "~mc:*", "+@all"]).await, "+OK\r\n");
    let mut scoped = server.memcache().await;
    scoped.expect("set auth 0 0 7\r\nmc mcpw\r\n", "STORED\r\n").await;
    scoped.expect("set mc:a 0 0 1\r\nx\r\n", "STORED\r\n").await;
    scoped.expect("set k 0 0 1\r\ny\r\n", "CLIENT_ERROR NOPERM No permissions to access a key\r\n").await;
    scoped.expect("get mc:a k\r\n", "CLIENT_ERROR NOPERM No permissions to access a key\r\n").await;
    scoped.expect("touch k 10\r\n", "CLIENT_ERROR NOPERM No permissions to access a key\r\n").await;
    scoped.expect("get mc:a\r\n", "VALUE mc:a 0 1\r\nx\r\nEND\r\n").await;
    assert_eq!(admin.call(&["GET", "k"]).await, "$1\r\nv\r\n");
    server.stop().await;
}
