//! Support for the issue-3 wire tests: a server started through `launch` (as `main` starts
//! it) on port 0 with its own temp dir, and a raw client over any stream (TCP or TLS) that
//! sends bytes and reads whole replies.

#![allow(dead_code)]

use basalt_server::launch::{self, Launched};
use basalt_server::security::BoundAddrs;
use basalt_server::Config;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: AtomicU64 = AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!("basalt-sec-{tag}-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
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

pub struct Running {
    pub addrs: BoundAddrs,
    pub shared: Arc<basalt_server::Shared>,
    pub task: tokio::task::JoinHandle<Result<(), basalt_server::ServerError>>,
}

impl Running {
    pub async fn client(&self) -> Client<TcpStream> {
        Client::new(TcpStream::connect(self.addrs.plain.expect("plaintext port")).await.expect("connect"))
    }

    pub async fn memcache(&self) -> Client<TcpStream> {
        Client::new(TcpStream::connect(self.addrs.memcached.expect("memcached port")).await.expect("connect"))
    }

    pub async fn stop(self) {
        self.shared.request_shutdown();
        let _ = tokio::time::timeout(Duration::from_secs(10), self.task).await;
    }
}

/// Starts a server on `dir` with port 0 and the given `--flag value` settings.
pub async fn start(dir: &TempDir, flags: &[(&str, &str)]) -> Running {
    try_start(dir, flags).await.expect("start")
}

pub async fn try_start(dir: &TempDir, flags: &[(&str, &str)]) -> Result<Running, String> {
    let mut args = vec!["--port".to_string(), "0".to_string(), "--dir".to_string(), dir.0.display().to_string()];
    for (name, value) in flags {
        args.push(format!("--{name}"));
        args.push(value.to_string());
    }
    let config = Config::from_args(args).map_err(|e| e.to_string())?;
    let launched: Launched = launch::start(config).await?;
    let addrs = launched.addrs.clone();
    let shared = launched.shared.clone();
    let task = tokio::spawn(launched.run());
    Ok(Running { addrs, shared, task })
}

pub struct Client<S> {
    pub stream: S,
    pub buf: Vec<u8>,
}

impl<S: AsyncRead + AsyncWrite + Unpin> Client<S> {
    pub fn new(stream: S) -> Client<S> {
        Client { stream, buf: Vec::new() }
    }

    pub async fn send(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).await.expect("send");
        self.stream.flush().await.expect("flush");
    }

    async fn fill(&mut self) -> bool {
        let mut chunk = [0u8; 65536];
        match tokio::time::timeout(Duration::from_secs(10), self.stream.read(&mut chunk)).await {
            Ok(Ok(k)) if k > 0 => {
                self.buf.extend_from_slice(&chunk[..k]);
                true
            }
            _ => false,
        }
    }

    /// One whole RESP reply as text.
    pub async fn reply(&mut self) -> String {
        loop {
            if let Some(n) = reply_len(&self.buf, 0) {
                let reply: Vec<u8> = self.buf.drain(..n).collect();
                return String::from_utf8_lossy(&reply).into_owned();
            }
            assert!(self.fill().await, "connection closed or timed out; got {:?}", String::from_utf8_lossy(&self.buf));
        }
    }

    pub async fn call(&mut self, args: &[&str]) -> String {
        self.send(&encode(args)).await;
        self.reply().await
    }

    /// Exactly `n` bytes of text (for the memcached protocol), or fewer if the server closes.
    pub async fn read_exact_text(&mut self, n: usize) -> String {
        while self.buf.len() < n {
            if !self.fill().await {
                break;
            }
        }
        let take = n.min(self.buf.len());
        String::from_utf8_lossy(&self.buf.drain(..take).collect::<Vec<u8>>()).into_owned()
    }

    /// Text up to and including the first `end` (or all there is if the server stops first).
    pub async fn read_until(&mut self, end: &str) -> String {
        loop {
            if let Some(at) = self.buf.windows(end.len()).position(|w| w == end.as_bytes()) {
                let text: Vec<u8> = self.buf.drain(..at + end.len()).collect();
                return String::from_utf8_lossy(&text).into_owned();
            }
            if !self.fill().await {
                return String::from_utf8_lossy(&std::mem::take(&mut self.buf)).into_owned();
            }
        }
    }

    /// Sends `request` and checks the reply bytes are exactly `expected`.
    pub async fn expect(&mut self, request: &str, expected: &str) {
        self.send(request.as_bytes()).await;
        let got = self.read_exact_text(expected.len()).await;
        assert_eq!(got, expected, "request {request:?}");
    }

    /// Everything until the server closes (at most 10 s).
    pub async fn until_closed(&mut self) -> String {
        while self.fill().await {}
        String::from_utf8_lossy(&std::mem::take(&mut self.buf)).into_owned()
    }
}

pub fn encode(args: &[&str]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", args.len()).into_bytes();
    for a in args {
        out.extend_from_slice(format!("${}\r\n{a}\r\n", a.len()).as_bytes());
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
        _ => Some(after - at),
    }
}
