//! Test helpers: real servers on free loopback ports, a tiny RESP client for the oracle
//! (`INFO commandstats`, DBSIZE, KEYS), and running basalt-bench with a time limit.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use basalt_bench::proto;

static DIRS: AtomicU32 = AtomicU32::new(0);

pub fn temp_dir(tag: &str) -> PathBuf {
    let n = DIRS.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("basalt-bench-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").expect("bind port 0").local_addr().unwrap().port()
}

pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|p| p.join(program).is_file()))
        .unwrap_or(false)
}

/// A server process that is killed and cleaned up when dropped.
pub struct Server {
    child: Child,
    pub port: u16,
    /// The server's data directory, removed on drop; None for a server that keeps nothing.
    dir: Option<PathBuf>,
    pub name: &'static str,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Waits for a PING reply; Err when the process exited first (its port may have been taken).
fn wait_ready(server: &mut Server) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(15);
    while Instant::now() < deadline {
        if let Ok(Some(status)) = server.child.try_wait() {
            return Err(format!("{} exited early: {status}", server.name));
        }
        // Any reply (PONG, or NOAUTH with a password set) means it is serving.
        if try_cmd(server.port, &["PING"]).is_ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{} did not answer PING on port {}", server.name, server.port);
}

/// Starts `command(port)` on a free port until it serves. A port found free can be taken by
/// another process before the server binds it (other suites run on the same machine), so a
/// server that exits at once is started again on another port, a few times.
fn start_on_free_port(name: &'static str, dir: PathBuf, command: impl Fn(u16) -> Command) -> Server {
    let mut last = String::new();
    for _ in 0..5 {
        let port = free_port();
        let child = command(port).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap_or_else(|e| panic!("spawn {name}: {e}"));
        let mut server = Server { child, port, dir: Some(dir.clone()), name };
        match wait_ready(&mut server) {
            Ok(()) => return server,
            Err(e) => {
                last = e;
                // Keep the directory for the next attempt; Drop would remove it.
                let _ = server.child.wait();
                std::mem::forget(server);
            }
        }
    }
    panic!("{last} (5 attempts on fresh ports)");
}

/// redis-server from Debian, or None (with a message) when it is not installed.
pub fn redis(extra: &[&str]) -> Option<Server> {
    if !on_path("redis-server") {
        eprintln!("SKIP: redis-server is not on PATH (the bootstrap installs it: apt-get install redis-server)");
        return None;
    }
    let dir = temp_dir("redis");
    Some(start_on_free_port("redis-server", dir.clone(), |port| {
        let mut cmd = Command::new("redis-server");
        cmd.args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(&dir)
            .args(extra);
        cmd
    }))
}

/// memcached from Debian, or None (with a message) when it is not installed. It does not speak
/// PING: the caller waits until it answers its own protocol.
pub fn memcached() -> Option<Server> {
    if !on_path("memcached") {
        eprintln!("SKIP: memcached is not on PATH");
        return None;
    }
    let port = free_port();
    let child = Command::new("memcached")
        .args(["-l", "127.0.0.1", "-p", &port.to_string(), "-U", "0", "-u", "root", "-m", "64"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn memcached");
    Some(Server { child, port, dir: None, name: "memcached" })
}

pub fn basalt_server_bin() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("BASALT_ENGINE_BIN") {
        let p = PathBuf::from(p);
        if p.is_file() {
            return Some(p);
        }
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/release/basalt-server");
    p.is_file().then_some(p)
}

/// basalt-server when its binary exists (BASALT_ENGINE_BIN or engine/target/release).
pub fn basalt() -> Option<Server> {
    basalt_with(&[])
}

/// The same with more of its flags (e.g. `--memcached-port N`).
pub fn basalt_with(extra: &[&str]) -> Option<Server> {
    let Some(bin) = basalt_server_bin() else {
        eprintln!("SKIP: basalt-server binary not built (set BASALT_ENGINE_BIN or build engine/target/release/basalt-server)");
        return None;
    };
    let dir = temp_dir("basalt");
    Some(start_on_free_port("basalt-server", dir.clone(), |port| {
        let mut cmd = Command::new(&bin);
        cmd.args(["--bind", "127.0.0.1", "--port", &port.to_string()]).arg("--dir").arg(&dir).args(extra);
        cmd
    }))
}

pub fn try_cmd(port: u16, args: &[&str]) -> std::io::Result<Vec<u8>> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut req = Vec::new();
    let parts: Vec<&[u8]> = args.iter().map(|a| a.as_bytes()).collect();
    proto::encode_command(&mut req, &parts);
    s.write_all(&req)?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 65536];
    loop {
        if let Ok(Some((len, _))) = proto::scan_resp(&buf) {
            buf.truncate(len);
            return Ok(buf);
        }
        let n = s.read(&mut chunk)?;
        if n == 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "closed"));
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

pub fn cmd(port: u16, args: &[&str]) -> String {
    String::from_utf8_lossy(&try_cmd(port, args).expect("command")).into_owned()
}

/// The bulk strings of an array reply (KEYS).
pub fn array(port: u16, args: &[&str]) -> Vec<String> {
    let raw = cmd(port, args);
    raw.split("\r\n").skip(1).collect::<Vec<_>>().chunks(2).filter(|c| c.len() == 2).map(|c| c[1].to_string()).collect()
}

pub fn int(port: u16, args: &[&str]) -> u64 {
    let r = cmd(port, args);
    r.trim().trim_start_matches(':').parse().unwrap_or_else(|_| panic!("not an integer reply: {r:?}"))
}

/// `INFO commandstats` as command -> calls.
pub fn commandstats(port: u16) -> HashMap<String, u64> {
    let raw = cmd(port, &["INFO", "commandstats"]);
    let mut out = HashMap::new();
    for line in raw.lines() {
        if let Some(rest) = line.strip_prefix("cmdstat_") {
            if let Some((name, fields)) = rest.split_once(':') {
                let calls = fields
                    .split(',')
                    .find_map(|f| f.strip_prefix("calls="))
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0);
                out.insert(name.to_lowercase(), calls);
            }
        }
    }
    out
}

pub fn delta(before: &HashMap<String, u64>, after: &HashMap<String, u64>, name: &str) -> u64 {
    after.get(name).copied().unwrap_or(0) - before.get(name).copied().unwrap_or(0)
}

pub fn bench_bin() -> &'static str {
    env!("CARGO_BIN_EXE_basalt-bench")
}

/// Run basalt-bench; panics if it runs longer than `limit`.
pub fn bench(args: &[&str], limit: Duration) -> (Output, Duration) {
    let start = Instant::now();
    let mut child = Command::new(bench_bin())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn basalt-bench");
    // Drain pipes in threads so a chatty child never blocks.
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t1 = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = so.read_to_end(&mut v);
        v
    });
    let t2 = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = se.read_to_end(&mut v);
        v
    });
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            let out = Output { status, stdout: t1.join().unwrap(), stderr: t2.join().unwrap() };
            return (out, start.elapsed());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("basalt-bench {args:?} ran longer than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn json_file(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("json file written");
    serde_json::from_str(&text).expect("valid JSON")
}

pub fn text(out: &Output) -> (String, String) {
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// A row of the summary table: name -> numbers (dashes become None).
pub fn table_row(stdout: &str, name: &str) -> Vec<Option<f64>> {
    let line = stdout
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no {name} row in:\n{stdout}"));
    line.split_whitespace().skip(1).map(|v| v.parse().ok()).collect()
}
