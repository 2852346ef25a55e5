//! Connection limits: maxclients refuses the connection over the limit, the idle timeout
//! closes a silent client, and a client sending garbage is cut off while others go on.

mod security_support;

use security_support::{start, TempDir};
use std::time::{Duration, Instant};

#[tokio::test]
async fn maxclients_timeout_and_garbage() {
    let dir = TempDir::new("limits");
    let server = start(&dir, &[("maxclients", "2"), ("timeout", "1")]).await;
    let mut a = server.client().await;
    let mut b = server.client().await;
    assert_eq!(a.call(&["PING"]).await, "+PONG\r\n");
    assert_eq!(b.call(&["PING"]).await, "+PONG\r\n");
    let mut third = server.client().await;
    assert_eq!(third.until_closed().await, "-ERR max number of clients reached\r\n");

    // Garbage closes that client only.
    b.send(b"*1\r\n$abc\r\n").await;
    assert_eq!(b.until_closed().await, "-ERR Protocol error: invalid bulk length\r\n");
    assert_eq!(a.call(&["PING"]).await, "+PONG\r\n");

    // Idle for more than `timeout` seconds: closed by the server.
    let started = Instant::now();
    assert_eq!(a.until_closed().await, "");
    let idle = started.elapsed();
    assert!(idle >= Duration::from_millis(900) && idle < Duration::from_secs(5), "{idle:?}");

    let mut c = server.client().await;
    assert_eq!(c.call(&["CONFIG", "SET", "timeout", "0"]).await, "+OK\r\n");
    assert_eq!(c.call(&["CONFIG", "GET", "maxclients"]).await, "*2\r\n$10\r\nmaxclients\r\n$1\r\n2\r\n");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(c.call(&["PING"]).await, "+PONG\r\n");
    let info = c.call(&["INFO", "security"]).await;
    assert!(info.contains("rejected_connections_maxclients:1") && info.contains("idle_closed_connections:1"), "{info}");
    server.stop().await;
}

#[tokio::test]
async fn bad_settings_are_start_errors() {
    let dir = TempDir::new("limits-bad");
    let err = security_support::try_start(&dir, &[("tls-port", "0")]).await.err().expect("must fail");
    assert_eq!(err, "tls-port needs tls-cert-file and tls-key-file");
    let err = security_support::try_start(&dir, &[("maxclients", "0")]).await.err().expect("must fail");
    assert!(err.contains("maxclients must be at least 1"), "{err}");
    let err = security_support::try_start(&dir, &[("encryption-key-file", "/dev/null")]).await.err().expect("must fail");
    assert!(err.contains("encryption-key-file") && err.contains("AES-256 needs 32"), "{err}");
    std::fs::write(dir.0.join("users.acl"), "user bob on >cleartext\n").unwrap();
    let err = security_support::try_start(&dir, &[]).await.err().expect("must fail");
    assert!(err.contains("clear-text passwords are not allowed"), "{err}");
}

#[tokio::test]
async fn request_size_and_output_limits() {
    let dir = TempDir::new("limits-size");
    let server = start(&dir, &[]).await;
    let mut admin = server.client().await;
    assert_eq!(admin.call(&["CONFIG", "SET", "proto-max-bulk-len", "1kb"]).await, "+OK\r\n");
    assert_eq!(admin.call(&["CONFIG", "GET", "proto-max-bulk-len"]).await, "*2\r\n$18\r\nproto-max-bulk-len\r\n$4\r\n1024\r\n");
    let mut big = server.client().await;
    big.send(&security_support::encode(&["SET", "k", &"x".repeat(2048)])).await;
    assert_eq!(big.until_closed().await, "-ERR Protocol error: invalid bulk length\r\n");
    assert_eq!(admin.call(&["CONFIG", "SET", "proto-max-bulk-len", "64mb"]).await, "+OK\r\n");
    assert!(admin.call(&["CONFIG", "SET", "proto-max-bulk-len", "1"]).await.starts_with("-ERR CONFIG SET failed"));

    // A client that asks for replies and never reads them is cut once more than the limit
    // stays unsent for the limit's seconds; the others go on.
    assert_eq!(admin.call(&["SET", "v", &"y".repeat(4 << 20)]).await, "+OK\r\n");
    assert_eq!(admin.call(&["CONFIG", "SET", "client-output-buffer-limit", "normal 1mb 1"]).await, "+OK\r\n");
    let mut hog = server.client().await;
    let mut pipeline = Vec::new();
    for _ in 0..64 {
        pipeline.extend_from_slice(&security_support::encode(&["GET", "v"]));
    }
    hog.send(&pipeline).await;
    let mut cut = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let info = admin.call(&["INFO", "security"]).await;
        if info.contains("output_limit_closed_connections:1") {
            cut = true;
            break;
        }
    }
    assert!(cut, "the client that stopped reading was not cut off");
    assert_eq!(admin.call(&["PING"]).await, "+PONG\r\n");
    server.stop().await;
}
