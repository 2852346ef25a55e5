//! Support for the issue-3 wire tests: a server started through `launch` (as `main` starts
//! it, with users, allowlist, limits, TLS and the extra ports) on port 0 from `--flag value`
//! settings, and a text view of the raw client, since these tests compare whole replies as
//! strings. Temp dirs, framing, reading and stopping come from `common`, included here so a
//! test declares this module alone.

#![allow(dead_code)]

#[path = "../common/mod.rs"]
mod common;

use common::ServerTask;
use basalt_server::launch;
use basalt_server::managed::BoundAddrs;
use basalt_server::Config;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

pub use common::TempDir;

/// A launched server: the addresses of the ports it bound, and its accept loop.
pub struct Running {
    pub addrs: BoundAddrs,
    pub running: ServerTask,
}

impl Running {
    pub async fn client(&self) -> Client {
        Client { raw: common::connect(self.addrs.plain.expect("plaintext port")).await }
    }

    pub async fn memcache(&self) -> Client {
        Client { raw: common::connect(self.addrs.memcached.expect("memcached port")).await }
    }

    pub async fn stop(self) {
        self.running.stop().await;
    }
}

/// Starts a server on `dir` with port 0 and the given `--flag value` settings.
pub async fn start(dir: &TempDir, flags: &[(&str, &str)]) -> Running {
    try_start(dir, flags).await.expect("start")
}

/// As `start`, but a setting the server refuses is the start-up message, for tests of them.
pub async fn try_start(dir: &TempDir, flags: &[(&str, &str)]) -> Result<Running, String> {
    let mut args = vec!["--port".to_string(), "0".to_string(), "--dir".to_string(), dir.0.display().to_string()];
    for (name, value) in flags {
        args.push(format!("--{name}"));
        args.push(value.to_string());
    }
    let config = Config::from_args(args).map_err(|e| e.to_string())?;
    let launched = launch::start(config).await?;
    let addrs = launched.addrs.clone();
    let running = ServerTask::spawn(launched.shared.clone(), launched.run());
    Ok(Running { addrs, running })
}

/// The raw client with requests and replies as text.
pub struct Client<S = TcpStream> {
    pub raw: common::Client<S>,
}

impl<S: AsyncRead + AsyncWrite + Unpin> Client<S> {
    pub fn new(stream: S) -> Client<S> {
        Client { raw: common::Client::new(stream) }
    }

    pub async fn send(&mut self, bytes: &[u8]) {
        self.raw.send(bytes).await;
    }

    /// One whole RESP reply as text; what follows stays buffered for the next.
    pub async fn reply(&mut self) -> String {
        text(self.raw.next_reply().await)
    }

    pub async fn call(&mut self, args: &[&str]) -> String {
        self.send(&encode(args)).await;
        self.reply().await
    }

    /// Exactly `n` bytes of text (for the memcached protocol), or fewer if the server closes.
    pub async fn read_exact_text(&mut self, n: usize) -> String {
        text(self.raw.read_n(n).await)
    }

    /// Text up to and including the first `end` (or all there is if the server stops first).
    pub async fn read_until(&mut self, end: &str) -> String {
        text(self.raw.read_until(end.as_bytes()).await)
    }

    /// Sends `request` and checks the reply bytes are exactly `expected`.
    pub async fn expect(&mut self, request: &str, expected: &str) {
        self.raw.expect(request.as_bytes(), expected.as_bytes()).await;
    }

    /// Everything until the server closes (at most 10 s).
    pub async fn until_closed(&mut self) -> String {
        text(self.raw.read_to_close().await)
    }
}

/// A command of text arguments as a RESP multibulk frame.
pub fn encode(args: &[&str]) -> Vec<u8> {
    common::encode(&args.iter().map(|arg| arg.as_bytes()).collect::<Vec<_>>())
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8_lossy(&bytes).into_owned()
}
