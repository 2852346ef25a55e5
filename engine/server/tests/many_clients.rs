//! Thousands of connections at once, and garbage on many of them: every client gets its
//! answers, garbage gets `-ERR` (never a crash), and the server still answers afterwards.

mod common;

use common::{encode, reply_len, TestServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_thousand_clients_at_once() {
    basalt_server::fdlimit::raise();
    let server = TestServer::start().await;
    let mut clients = Vec::new();
    for _ in 0..3000 {
        clients.push(server.client().await);
    }
    // Every connection is open at the same time; each sets and reads back its own key.
    let mut tasks = Vec::new();
    for (i, mut c) in clients.into_iter().enumerate() {
        tasks.push(tokio::spawn(async move {
            let key = format!("client:{i}");
            c.expect(&encode(&[b"SET", key.as_bytes(), key.as_bytes()]), b"+OK\r\n").await;
            c.expect(&encode(&[b"GET", key.as_bytes()]), format!("${}\r\n{key}\r\n", key.len()).as_bytes()).await;
            c
        }));
    }
    let mut kept = Vec::new();
    for t in tasks {
        kept.push(t.await.unwrap());
    }
    let mut c = server.client().await;
    let info = String::from_utf8(c.call(&[b"INFO", b"clients"]).await).unwrap();
    assert!(info.contains("connected_clients:3001\r\n"), "{info}");
    c.expect(b"DBSIZE\r\n", b":3000\r\n").await;
    drop(kept);
    server.stop().await;
}

/// xorshift64*, deterministic.
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_gets_errors_never_a_crash() {
    let server = TestServer::start().await;
    for round in 0..300u64 {
        let mut garbage = noise(round, 1 + (round as usize * 37) % 3000);
        // Some rounds start like RESP so the parser goes deeper.
        let prefix: &[u8] = match round % 4 {
            0 => b"*3\r\n$3\r\n",
            1 => b"*2\r\n$999999999999\r\n",
            _ => b"",
        };
        garbage.splice(0..0, prefix.iter().copied());
        let mut c = server.client().await;
        c.stream.write_all(&garbage).await.unwrap();
        // Closing our side makes the server finish: it answers what it could parse, then closes.
        c.stream.shutdown().await.unwrap();
        let mut answer = Vec::new();
        let read = tokio::time::timeout(std::time::Duration::from_secs(10), c.stream.read_to_end(&mut answer)).await;
        assert!(read.is_ok(), "round {round}: the server neither answered nor closed");
        // Whatever came back is a sequence of complete RESP replies.
        let mut pos = 0;
        while pos < answer.len() {
            let n = reply_len(&answer, pos).unwrap_or_else(|| panic!("round {round}: torn reply {:?}", String::from_utf8_lossy(&answer[pos..])));
            pos += n;
        }
    }
    let mut c = server.client().await;
    c.expect(b"PING\r\n", b"+PONG\r\n").await;
    server.stop().await;
}
