//! Test support: a server on 127.0.0.1:0 with its own temp dir, and a raw TCP client that
//! sends bytes and reads exactly the bytes it expects.

#![allow(dead_code)]

use basalt_server::{Config, Server};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A unique empty directory under the system temp dir, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: AtomicU64 = AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "basalt-server-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub struct TestServer {
    pub addr: std::net::SocketAddr,
    pub shared: Arc<basalt_server::Shared>,
    pub task: tokio::task::JoinHandle<Result<(), basalt_server::ServerError>>,
    pub dir: TempDir,
}

impl TestServer {
    pub async fn start() -> TestServer {
        TestServer::start_with(|_| {}).await
    }

    pub async fn start_with(tweak: impl FnOnce(&mut Config)) -> TestServer {
        let dir = TempDir::new("wire");
        let mut config = Config { port: 0, dir: dir.0.clone(), ..Config::default() };
        tweak(&mut config);
        let server = Server::bind(config).await.expect("bind");
        let addr = server.local_addr();
        let shared = server.shared.clone();
        let task = tokio::spawn(server.run());
        TestServer { addr, shared, task, dir }
    }

    pub async fn client(&self) -> Client {
        Client { stream: TcpStream::connect(self.addr).await.expect("connect") }
    }

    pub async fn stop(self) {
        self.shared.request_shutdown();
        let _ = tokio::time::timeout(Duration::from_secs(10), self.task).await;
    }
}

pub struct Client {
    pub stream: TcpStream,
}

impl Client {
    pub async fn send(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).await.expect("send");
    }

    /// Reads exactly `n` bytes (or fewer if the server closes), waiting at most 10 s.
    pub async fn read_n(&mut self, n: usize) -> Vec<u8> {
        let mut out = vec![0u8; n];
        let mut got = 0;
        while got < n {
            match tokio::time::timeout(Duration::from_secs(10), self.stream.read(&mut out[got..])).await {
                Ok(Ok(0)) | Ok(Err(_)) | Err(_) => break,
                Ok(Ok(k)) => got += k,
            }
        }
        out.truncate(got);
        out
    }

    /// Sends `request` and asserts the reply bytes are exactly `expected`.
    pub async fn expect(&mut self, request: &[u8], expected: &[u8]) {
        self.send(request).await;
        let got = self.read_n(expected.len()).await;
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(expected),
            "request {:?}",
            String::from_utf8_lossy(request)
        );
    }

    /// Sends a command as a multibulk frame and returns one whole reply's raw bytes.
    pub async fn call(&mut self, args: &[&[u8]]) -> Vec<u8> {
        self.send(&encode(args)).await;
        self.read_reply().await
    }

    /// Reads one complete RESP reply (any type, nested), returning its raw bytes.
    pub async fn read_reply(&mut self) -> Vec<u8> {
        let mut buf = Vec::new();
        loop {
            if let Some(n) = reply_len(&buf, 0) {
                assert_eq!(n, buf.len(), "more bytes than one reply: {:?}", String::from_utf8_lossy(&buf));
                return buf;
            }
            let mut chunk = [0u8; 65536];
            let k = match tokio::time::timeout(Duration::from_secs(10), self.stream.read(&mut chunk)).await {
                Ok(Ok(k)) => k,
                _ => 0,
            };
            assert!(k > 0, "connection closed or timed out; got {:?}", String::from_utf8_lossy(&buf));
            buf.extend_from_slice(&chunk[..k]);
        }
    }

    /// True when the server closed the connection (read returns 0 within 5 s).
    pub async fn is_closed(&mut self) -> bool {
        let mut b = [0u8; 1];
        matches!(tokio::time::timeout(Duration::from_secs(5), self.stream.read(&mut b)).await, Ok(Ok(0)) | Ok(Err(_)))
    }
}

/// A command as a RESP multibulk frame.
pub fn encode(args: &[&[u8]]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", args.len()).into_bytes();
    for a in args {
        out.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
        out.extend_from_slice(a);
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// Length of the complete reply starting at `at`, or None if incomplete.
pub fn reply_len(buf: &[u8], at: usize) -> Option<usize> {
    let line_end = at + buf.get(at..)?.windows(2).position(|w| w == b"\r\n")?;
    let head = *buf.get(at)?;
    let text = std::str::from_utf8(&buf[at + 1..line_end]).ok()?;
    let after = line_end + 2;
    match head {
        b'+' | b'-' | b':' | b'_' | b',' | b'#' | b'(' => Some(after - at),
        b'$' | b'=' | b'!' => {
            let n: i64 = text.parse().ok()?;
            if n < 0 {
                return Some(after - at);
            }
            let end = after + n as usize + 2;
            (buf.len() >= end).then_some(end - at)
        }
        b'*' | b'~' | b'%' | b'>' => {
            let n: i64 = text.parse().ok()?;
            let items = if head == b'%' { n * 2 } else { n };
            let mut pos = after;
            for _ in 0..items.max(0) {
                pos += reply_len(buf, pos)?;
            }
            Some(pos - at)
        }
        _ => panic!("unknown reply type {:?}", head as char),
    }
}
