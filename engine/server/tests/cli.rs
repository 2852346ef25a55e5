//! The binary as an operator runs it: flags over a TOML file, a bad flag refused with exit 2,
//! SIGTERM flushing and exiting 0, and the data there again after a restart.

mod common;

use common::{connect, TempDir};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_basalt-server");

/// Starts the binary and returns it with the address from its "ready" line.
fn spawn(args: &[&str]) -> (Child, String) {
    let mut child = Command::new(BIN).args(args).stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let ready = lines.next().expect("a ready line").unwrap();
    let addr = ready.split("connections on ").nth(1).unwrap().split(' ').next().unwrap().to_string();
    // Keep draining stdout so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, addr)
}

fn terminate(child: &mut Child) -> i32 {
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    for _ in 0..200 {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code().unwrap_or(-1);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    panic!("the server did not stop on SIGTERM");
}

#[tokio::test]
async fn flags_override_the_config_file_and_sigterm_keeps_the_data() {
    let dir = TempDir::new("cli");
    let file = dir.0.join("basalt.toml");
    let data = dir.0.join("data");
    std::fs::write(
        &file,
        format!("bind = \"127.0.0.1\"\nport = 0\ndir = {:?}\nfsync = \"always\"\nmaxmemory = \"1mb\"\nthreads = 1\n", data),
    )
    .unwrap();
    let (mut child, addr) = spawn(&["--config", file.to_str().unwrap(), "--fsync", "no"]);
    let mut c = connect(&addr).await;
    c.expect(b"CONFIG GET appendfsync\r\n", b"*2\r\n$11\r\nappendfsync\r\n$2\r\nno\r\n").await;
    c.expect(b"CONFIG GET maxmemory\r\n", b"*2\r\n$9\r\nmaxmemory\r\n$7\r\n1048576\r\n").await;
    c.expect(b"CONFIG GET threads\r\n", b"*2\r\n$7\r\nthreads\r\n$1\r\n1\r\n").await;
    c.expect(b"SET survives yes\r\n", b"+OK\r\n").await;
    drop(c);
    assert_eq!(terminate(&mut child), 0);

    let (mut child, addr) = spawn(&["--config", file.to_str().unwrap()]);
    let mut c = connect(&addr).await;
    c.expect(b"GET survives\r\n", b"$3\r\nyes\r\n").await;
    c.expect(b"CONFIG GET fsync\r\n", b"*2\r\n$5\r\nfsync\r\n$6\r\nalways\r\n").await;
    // SHUTDOWN stops it too, with exit status 0.
    c.send(b"SHUTDOWN\r\n").await;
    assert!(c.is_closed().await);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn bad_flags_are_refused_with_a_message() {
    for args in [&["--fsync", "sometimes"][..], &["--port", "70000"], &["--threads", "0"], &["--frobnicate", "1"], &["--port"]] {
        let out = Command::new(BIN).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(text.starts_with("basalt-server: "), "{args:?}: {text}");
    }
}

#[test]
fn version_flag_prints_the_version_and_exits_0() {
    for flag in ["-v", "--version"] {
        let out = Command::new(BIN).arg(flag).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{flag}");
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("basalt-server v={}", env!("CARGO_PKG_VERSION")));
    }
    // Not the only argument: a flag's value, refused here as a port.
    let out = Command::new(BIN).args(["--port", "-v"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}
