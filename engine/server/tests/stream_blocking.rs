//! XREAD and XREADGROUP with BLOCK at the wire, bytes as redis-server 7.0.15 answered the same
//! sequence: `$` means the last id at the time XREAD blocked (the entry that wakes it is
//! served, not skipped), timeouts, a consumer served by a later XADD (its entry pending), a
//! blocked XREADGROUP answered UNBLOCKED when its stream is deleted and NOGROUP when its group
//! is destroyed, an XREAD kept waiting while its key holds another type, RESP3 replies.

mod common;

use common::{Client, TestServer};
use std::time::Duration;

/// Waits until `n` clients are blocked (INFO clients), so the next write comes after the block.
async fn blocked(c: &mut Client, n: usize) {
    let want = format!("blocked_clients:{n}\r\n");
    for _ in 0..500 {
        let info = c.call(&[b"INFO", b"clients"]).await;
        if String::from_utf8_lossy(&info).contains(&want) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("not {n} blocked clients");
}

fn cmd(args: &[&str]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", args.len()).into_bytes();
    for a in args {
        out.extend_from_slice(format!("${}\r\n{a}\r\n", a.len()).as_bytes());
    }
    out
}

#[tokio::test]
async fn xread_and_xreadgroup_block() {
    let server = TestServer::start().await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    a.expect(&cmd(&["XADD", "s", "1-0", "f", "v"]), b"$3\r\n1-0\r\n").await;
    // `$` is 1-0 when XREAD blocks: the XADD that wakes it is what it reads.
    a.send(&cmd(&["XREAD", "BLOCK", "0", "STREAMS", "s", "$"])).await;
    blocked(&mut b, 1).await;
    b.expect(&cmd(&["XADD", "s", "2-0", "g", "w"]), b"$3\r\n2-0\r\n").await;
    a.expect(b"", b"*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n2-0\r\n*2\r\n$1\r\ng\r\n$1\r\nw\r\n").await;
    a.expect(&cmd(&["XREAD", "BLOCK", "100", "STREAMS", "s", "$"]), b"*-1\r\n").await;
    // A consumer blocked on `>` gets the next entry, which becomes pending for it.
    a.expect(&cmd(&["XGROUP", "CREATE", "s", "g", "$"]), b"+OK\r\n").await;
    a.send(&cmd(&["XREADGROUP", "GROUP", "g", "alice", "BLOCK", "0", "STREAMS", "s", ">"])).await;
    blocked(&mut b, 1).await;
    b.expect(&cmd(&["XADD", "s", "3-0", "h", "x"]), b"$3\r\n3-0\r\n").await;
    a.expect(b"", b"*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n3-0\r\n*2\r\n$1\r\nh\r\n$1\r\nx\r\n").await;
    b.expect(&cmd(&["XPENDING", "s", "g"]), b"*4\r\n:1\r\n$3\r\n3-0\r\n$3\r\n3-0\r\n*1\r\n*2\r\n$5\r\nalice\r\n$1\r\n1\r\n").await;
    // The stream deleted under a blocked consumer.
    a.send(&cmd(&["XREADGROUP", "GROUP", "g", "alice", "BLOCK", "0", "STREAMS", "s", ">"])).await;
    blocked(&mut b, 1).await;
    b.expect(&cmd(&["DEL", "s"]), b":1\r\n").await;
    a.expect(b"", b"-UNBLOCKED the stream key no longer exists\r\n").await;
    // A key of another type keeps XREAD waiting; the stream that comes back serves it.
    a.send(&cmd(&["XREAD", "BLOCK", "0", "STREAMS", "s", "$"])).await;
    blocked(&mut b, 1).await;
    b.expect(&cmd(&["SET", "s", "str"]), b"+OK\r\n").await;
    blocked(&mut b, 1).await;
    b.expect(&cmd(&["DEL", "s"]), b":1\r\n").await;
    b.expect(&cmd(&["XADD", "s", "9-0", "k", "v"]), b"$3\r\n9-0\r\n").await;
    a.expect(b"", b"*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n9-0\r\n*2\r\n$1\r\nk\r\n$1\r\nv\r\n").await;
    // The group destroyed under a blocked consumer.
    a.expect(&cmd(&["XGROUP", "CREATE", "s", "g2", "$"]), b"+OK\r\n").await;
    a.send(&cmd(&["XREADGROUP", "GROUP", "g2", "bob", "BLOCK", "0", "STREAMS", "s", ">"])).await;
    blocked(&mut b, 1).await;
    b.expect(&cmd(&["XGROUP", "DESTROY", "s", "g2"]), b":1\r\n").await;
    a.expect(b"", b"-NOGROUP the consumer group this client was blocked on no longer exists\r\n").await;
    // Inside MULTI nothing blocks.
    a.expect(&cmd(&["MULTI"]), b"+OK\r\n").await;
    a.expect(&cmd(&["XREAD", "BLOCK", "0", "STREAMS", "s", "$"]), b"+QUEUED\r\n").await;
    a.expect(&cmd(&["EXEC"]), b"*1\r\n*-1\r\n").await;
    // RESP3: null for a timeout, a map of streams otherwise.
    a.call(&[b"HELLO", b"3"]).await;
    a.expect(&cmd(&["XREAD", "BLOCK", "50", "STREAMS", "s", "$"]), b"_\r\n").await;
    a.expect(&cmd(&["XREAD", "STREAMS", "s", "0"]), b"%1\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n9-0\r\n*2\r\n$1\r\nk\r\n$1\r\nv\r\n").await;
    server.stop().await;
}
