//! The admin HTTP port (`--admin-port`, bound to `--admin-bind`, loopback by default): what
//! the control plane's monitoring reads. `GET /metrics` is Prometheus text format 0.0.4;
//! `GET /healthz` is 200 while the store takes writes and 503 once the log has failed.
//!
//! A deliberately small HTTP/1.1 server: one request per connection, a bounded head, no body;
//! the customer's IP allowlist does not apply here (the port is for the operator). With
//! `admin-token-sha256` set, `/metrics` answers 401 unless `Authorization: Bearer <token>`
//! hashes to it (the port then listens on the node's network, where a customer may be too).

use crate::prometheus;
use crate::managed::Managed;
use crate::server::Shared;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const MAX_HEAD: usize = 8 * 1024;
const READ_TIMEOUT: Duration = Duration::from_secs(5);

pub async fn serve(listener: TcpListener, shared: Arc<Shared>, managed: Arc<Managed>) {
    crate::accept::accept_loop(&shared.clone(), "admin", || listener.accept(), |stream, _| {
        let (shared, managed) = (shared.clone(), managed.clone());
        tokio::spawn(async move {
            let _ = tokio::time::timeout(READ_TIMEOUT * 2, handle(stream, &shared, &managed)).await;
        });
    })
    .await;
}

async fn read_head(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut head = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && !head.windows(2).any(|w| w == b"\n\n") {
        if head.len() > MAX_HEAD {
            return None;
        }
        let n = tokio::time::timeout(READ_TIMEOUT, stream.read(&mut chunk)).await.ok()?.ok()?;
        if n == 0 {
            return None;
        }
        head.extend_from_slice(&chunk[..n]);
    }
    Some(head)
}

async fn handle(mut stream: TcpStream, shared: &Shared, managed: &Managed) {
    let Some(head) = read_head(&mut stream).await else {
        let _ = respond(&mut stream, 400, "text/plain", b"bad request\n", false).await;
        return;
    };
    let line = head.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    let mut parts = line.trim_end().split(' ');
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let path = target.split('?').next().unwrap_or("");
    let head_only = method == "HEAD";
    if method != "GET" && !head_only {
        let _ = respond(&mut stream, 405, "text/plain", b"only GET and HEAD\n", false).await;
        return;
    }
    match path {
        "/metrics" if !authorized(&head, shared) => {
            let _ = respond(&mut stream, 401, "text/plain", b"unauthorized\n", head_only).await;
        }
        "/metrics" => {
            let body = prometheus::render(shared, managed);
            let _ = respond(&mut stream, 200, "text/plain; version=0.0.4; charset=utf-8", body.as_bytes(), head_only).await;
        }
        "/healthz" => {
            let store = shared.db.stats();
            if store.poisoned {
                let why = format!("unhealthy: the write-ahead log failed: {}\n", store.last_fsync_error.unwrap_or_default());
                let _ = respond(&mut stream, 503, "text/plain", why.as_bytes(), head_only).await;
            } else {
                let _ = respond(&mut stream, 200, "text/plain", b"ok\n", head_only).await;
            }
        }
        _ => {
            let _ = respond(&mut stream, 404, "text/plain", b"not found: try /metrics or /healthz\n", head_only).await;
        }
    }
}

/// Whether the request carries the bearer token whose hash the config holds (or none is asked).
fn authorized(head: &[u8], shared: &Shared) -> bool {
    let Some(expected) = shared.config().listeners.admin_token_sha256.clone() else {
        return true;
    };
    let head = String::from_utf8_lossy(head);
    head.lines().skip(1).any(|line| {
        let Some((name, value)) = line.split_once(':') else {
            return false;
        };
        let value = value.trim();
        name.trim().eq_ignore_ascii_case("authorization")
            && value.len() > 7
            && value[..7].eq_ignore_ascii_case("bearer ")
            && crate::acl::hash::same_hash(&crate::acl::hash::hash_password(value[7..].trim().as_bytes()), &expected)
    })
}

async fn respond(stream: &mut TcpStream, status: u16, content_type: &str, body: &[u8], head_only: bool) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "Service Unavailable",
    };
    let mut out = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    if !head_only {
        out.extend_from_slice(body);
    }
    stream.write_all(&out).await?;
    stream.shutdown().await
}
