//! What the RDB tests share: a real redis-server 7.0 on a loopback port of its own with a temp
//! dir, a tiny RESP2 client, and the canonical model both Redis and Basalt contents compare as.
#![allow(dead_code)]

pub mod fill;
pub mod model;
pub mod resp;

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// A temp dir removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("basalt-rdb-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A redis-server process, killed on drop.
pub struct Redis {
    child: Child,
    pub port: u16,
    pub dir: PathBuf,
}

/// A port below the kernel's ephemeral range (so no client socket takes it meanwhile), free now.
fn candidate_port(attempt: u32) -> Option<u16> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed) + attempt;
    let port = 20000 + ((std::process::id().wrapping_mul(7919) + n * 131) % 12000) as u16;
    TcpListener::bind(("127.0.0.1", port)).ok().map(|_| port)
}

impl Redis {
    /// Starts redis-server with `dir` as its dir and `dbfilename`, no saving, debug commands on.
    pub fn start(dir: &Path, dbfilename: &str) -> Redis {
        for attempt in 0..20 {
            let Some(port) = candidate_port(attempt) else { continue };
            let mut child = Command::new("redis-server")
                .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
                .arg("--dir")
                .arg(dir)
                .args(["--dbfilename", dbfilename, "--enable-debug-command", "yes", "--daemonize", "no"])
                .arg("--logfile")
                .arg(dir.join("redis.log"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("redis-server (Debian's redis-server 7.0) is installed");
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(10) {
                if let Ok(Some(_)) = child.try_wait() {
                    break; // lost the port to someone else: try another
                }
                if let Ok(mut c) = TcpStream::connect(("127.0.0.1", port)).map(resp::Conn::new) {
                    // Answers once the RDB (if any) is loaded; and it is this one (its dir),
                    // not another lane's server that took the port first.
                    if c.ok(&["PING"]).is_ok() {
                        let ours = c.ok(&["CONFIG", "GET", "dir"]).ok().and_then(|r| r.items().get(1).map(|d| d.bytes()));
                        if ours.as_deref() == Some(dir.as_os_str().as_encoded_bytes()) {
                            return Redis { child, port, dir: dir.to_path_buf() };
                        }
                        break;
                    }
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("could not start redis-server; see {}", dir.join("redis.log").display());
    }

    pub fn conn(&self) -> resp::Conn {
        resp::Conn::new(TcpStream::connect(("127.0.0.1", self.port)).unwrap())
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("redis.log")).unwrap_or_default()
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The basalt-rdb binary built for these tests.
pub fn basalt_rdb() -> Command {
    Command::new(env!("CARGO_BIN_EXE_basalt-rdb"))
}
