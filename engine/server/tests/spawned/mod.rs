//! Test support for tests that run the built `basalt-server` binary as a child process (so it
//! can be killed with SIGKILL): start it on a free port, connect, and a tiny blocking RESP
//! client. Temp dirs and request framing come from `common`, included here so a test
//! declares this module alone.

#![allow(dead_code)]

#[path = "../common/mod.rs"]
mod common;

pub use common::TempDir;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The server binary: `BASALT_ENGINE_BIN` if the test runner gives it, else the one Cargo built.
pub fn server_bin() -> PathBuf {
    match std::env::var_os("BASALT_ENGINE_BIN") {
        Some(p) if Path::new(&p).exists() => PathBuf::from(p),
        _ => PathBuf::from(env!("CARGO_BIN_EXE_basalt-server")),
    }
}

/// The server on `dir` at 127.0.0.1:`port` with extra flags, its stdin and stdout closed;
/// the caller decides where its stderr goes.
pub fn server_command(dir: &Path, port: u16, flags: &[&str]) -> Command {
    let mut command = Command::new(server_bin());
    command.args(["--bind", "127.0.0.1", "--port", &port.to_string(), "--dir"]).arg(dir).args(flags);
    command.stdin(Stdio::null()).stdout(Stdio::null());
    command
}

/// A running `basalt-server` child process. Killed (SIGKILL) on drop if still running.
pub struct Engine {
    pub child: Child,
    pub port: u16,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl Engine {
    /// Starts the server on a free port with `dir` and extra flags; waits until it accepts.
    pub fn start(dir: &Path, flags: &[&str]) -> Engine {
        for _attempt in 0..5 {
            let port = free_port();
            let mut child = server_command(dir, port, flags).stderr(Stdio::inherit()).spawn().expect("spawn basalt-server");
            let deadline = Instant::now() + Duration::from_secs(20);
            while Instant::now() < deadline {
                if let Ok(Some(status)) = child.try_wait() {
                    panic!("basalt-server exited at start: {status}");
                }
                // Whatever answers must answer PONG: while the server is still starting, or
                // when another test's process took the probed port, the probe may be reset.
                if let Ok(mut c) = Resp::connect(port) {
                    if c.send(b"*1\r\n$4\r\nPING\r\n").is_ok() && matches!(c.read(), Ok(Reply::Status(s)) if s == "PONG") {
                        return Engine { child, port };
                    }
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            // The port may have been taken between probe and bind; try another.
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("basalt-server did not start");
    }

    pub fn connect(&self) -> Resp {
        Resp::connect(self.port).expect("connect to basalt-server")
    }

    /// SIGKILL, then reap.
    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends SIGKILL to `pid` after `min_ms` plus a pseudo-random part of `spread_ms` (from
/// `rng`, advanced), from a thread the caller joins.
pub fn kill9_later(pid: u32, rng: &mut u64, min_ms: u64, spread_ms: u64) -> std::thread::JoinHandle<()> {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    let after = Duration::from_millis(min_ms + *rng % spread_ms);
    std::thread::spawn(move || {
        std::thread::sleep(after);
        let _ = std::process::Command::new("kill").args(["-9", &pid.to_string()]).status();
    })
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill9();
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Status(String),
    Error(String),
    Int(i64),
    Bulk(Option<Vec<u8>>),
    Array(Vec<Reply>),
}

/// A blocking RESP2 client over one connection.
pub struct Resp {
    pub writer: TcpStream,
    reader: BufReader<TcpStream>,
}

/// Appends a command as a RESP multibulk frame to `out`, for pipelines.
pub fn encode(args: &[&[u8]], out: &mut Vec<u8>) {
    out.extend_from_slice(&common::encode(args));
}

impl Resp {
    pub fn connect(port: u16) -> std::io::Result<Resp> {
        let s = TcpStream::connect(("127.0.0.1", port))?;
        s.set_nodelay(true)?;
        s.set_read_timeout(Some(Duration::from_secs(30)))?;
        Ok(Resp { writer: s.try_clone()?, reader: BufReader::new(s) })
    }

    /// Sends already encoded commands.
    pub fn send(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.writer.write_all(bytes)
    }

    pub fn cmd(&mut self, args: &[&[u8]]) -> Reply {
        let mut out = Vec::new();
        encode(args, &mut out);
        self.send(&out).expect("send");
        self.read().expect("read reply")
    }

    pub fn read(&mut self) -> std::io::Result<Reply> {
        let mut line = Vec::new();
        self.reader.read_until(b'\n', &mut line)?;
        if line.len() < 3 || !line.ends_with(b"\r\n") {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "connection closed"));
        }
        let body = String::from_utf8_lossy(&line[1..line.len() - 2]).into_owned();
        Ok(match line[0] {
            b'+' => Reply::Status(body),
            b'-' => Reply::Error(body),
            b':' => Reply::Int(body.parse().map_err(std::io::Error::other)?),
            b'$' => {
                let n: i64 = body.parse().map_err(std::io::Error::other)?;
                if n < 0 {
                    Reply::Bulk(None)
                } else {
                    let mut buf = vec![0u8; n as usize + 2];
                    self.reader.read_exact(&mut buf)?;
                    buf.truncate(n as usize);
                    Reply::Bulk(Some(buf))
                }
            }
            b'*' => {
                let n: i64 = body.parse().map_err(std::io::Error::other)?;
                let mut items = Vec::new();
                for _ in 0..n.max(0) {
                    items.push(self.read()?);
                }
                Reply::Array(items)
            }
            other => return Err(std::io::Error::other(format!("unexpected reply type {other:?}"))),
        })
    }

    /// GET of many keys, pipelined; `None` for a missing key.
    pub fn get_many(&mut self, keys: &[String]) -> Vec<Option<Vec<u8>>> {
        let mut result = Vec::with_capacity(keys.len());
        for chunk in keys.chunks(256) {
            let mut out = Vec::new();
            for k in chunk {
                encode(&[b"GET", k.as_bytes()], &mut out);
            }
            self.send(&out).expect("send");
            for k in chunk {
                match self.read().expect("read") {
                    Reply::Bulk(v) => result.push(v),
                    other => panic!("GET {k}: {other:?}"),
                }
            }
        }
        result
    }

    /// One field of `INFO section`, e.g. `used_memory`.
    pub fn info_field(&mut self, section: &str, field: &str) -> Option<String> {
        let Reply::Bulk(Some(text)) = self.cmd(&[b"INFO", section.as_bytes()]) else { return None };
        let text = String::from_utf8_lossy(&text).into_owned();
        text.lines().find_map(|l| l.strip_prefix(&format!("{field}:")).map(|v| v.trim().to_string()))
    }

    /// Bytes of the log's records (INFO `wal_bytes`). Not the segment files' sizes: the active
    /// segment is preallocated, so its file is longer than its records.
    pub fn log_bytes(&mut self) -> u64 {
        self.info_field("persistence", "wal_bytes").and_then(|v| v.parse().ok()).expect("INFO wal_bytes")
    }
}
