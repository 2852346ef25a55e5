//! The admin HTTP port: `/metrics` in Prometheus text format after real traffic on both
//! protocols, `/healthz`, and refusals of what it does not serve.

mod security_support;

use security_support::{start, Client, TempDir};
use tokio::net::TcpStream;

async fn http(addr: std::net::SocketAddr, request: &str) -> (String, String) {
    let mut c = Client::new(TcpStream::connect(addr).await.unwrap());
    c.send(request.as_bytes()).await;
    let all = c.until_closed().await;
    let (head, body) = all.split_once("\r\n\r\n").expect("an HTTP response");
    (head.to_string(), body.to_string())
}

/// The value of the sample `name{labels}` (labels as written, or "" for none).
fn sample(body: &str, name_and_labels: &str) -> f64 {
    body.lines()
        .find_map(|l| l.strip_prefix(name_and_labels).and_then(|rest| rest.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("no sample {name_and_labels}"))
        .parse()
        .unwrap()
}

#[tokio::test]
async fn metrics_and_health() {
    let dir = TempDir::new("metrics");
    let server = start(&dir, &[("admin-port", "0"), ("memcached-port", "0")]).await;
    let admin = server.addrs.admin.unwrap();
    let mut c = server.client().await;
    for i in 0..5 {
        assert_eq!(c.call(&["SET", &format!("k{i}"), "v"]).await, "+OK\r\n");
    }
    assert_eq!(c.call(&["GET", "k1"]).await, "$1\r\nv\r\n");
    assert_eq!(c.call(&["GET"]).await, "-ERR wrong number of arguments for 'get' command\r\n");
    let mut mc = server.memcache().await;
    mc.expect("get k1\r\n", "VALUE k1 0 1\r\nv\r\nEND\r\n").await;

    let (head, body) = http(admin, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").await;
    assert!(head.starts_with("HTTP/1.1 200 OK\r\n") && head.contains("Content-Type: text/plain; version=0.0.4"), "{head}");
    assert_eq!(sample(&body, "basalt_commands_total{command=\"set\"}"), 5.0);
    assert_eq!(sample(&body, "basalt_command_errors_total{command=\"get\",kind=\"rejected\"}"), 1.0);
    assert_eq!(sample(&body, "basalt_command_duration_seconds_count{command=\"set\"}"), 5.0);
    assert_eq!(sample(&body, "basalt_command_duration_seconds_bucket{command=\"set\",le=\"+Inf\"}"), 5.0);
    assert_eq!(sample(&body, "basalt_memcache_command_duration_seconds_count{command=\"get\"}"), 1.0);
    assert_eq!(sample(&body, "basalt_connected_clients"), 2.0);
    assert_eq!(sample(&body, "basalt_keys"), 5.0);
    assert!(sample(&body, "basalt_disk_log_bytes") > 0.0);
    assert!(sample(&body, "basalt_disk_free_bytes") > 0.0);
    assert!(sample(&body, "basalt_disk_total_bytes") >= sample(&body, "basalt_disk_free_bytes"));
    assert!(sample(&body, "basalt_cache_hit_ratio") <= 1.0);
    assert!(body.contains("# TYPE basalt_command_duration_seconds histogram\n"));
    assert!(body.contains("# TYPE basalt_fsyncs_total counter\n"));
    // Every sample line is `name{labels} number` or `name number`.
    for line in body.lines().filter(|l| !l.starts_with('#')) {
        let (_, value) = line.rsplit_once(' ').unwrap();
        assert!(value.parse::<f64>().is_ok() || value == "+Inf", "{line}");
    }

    let (head, body) = http(admin, "GET /healthz HTTP/1.1\r\n\r\n").await;
    assert!(head.starts_with("HTTP/1.1 200 OK"), "{head}");
    assert_eq!(body, "ok\n");
    let (head, _) = http(admin, "GET /nope HTTP/1.1\r\n\r\n").await;
    assert!(head.starts_with("HTTP/1.1 404"), "{head}");
    let (head, _) = http(admin, "POST /metrics HTTP/1.1\r\n\r\n").await;
    assert!(head.starts_with("HTTP/1.1 405"), "{head}");
    let (head, body) = http(admin, "HEAD /healthz HTTP/1.1\r\n\r\n").await;
    assert!(head.starts_with("HTTP/1.1 200") && body.is_empty(), "{head}");
    server.stop().await;
}

#[tokio::test]
async fn metrics_ask_for_the_token_and_export_classes_and_fsync() {
    let dir = TempDir::new("metrics-token");
    // The node keeps only the SHA-256 of the token (`echo -n foobar | sha256sum`).
    let hash = "c3ab8ff13720e8ad9047dd39466b3c8974e592c2fa383d4a3960714caef0c4f2";
    let server = start(&dir, &[("admin-port", "0"), ("admin-token-sha256", hash), ("fsync", "always")]).await;
    let admin = server.addrs.admin.unwrap();
    let mut c = server.client().await;
    assert_eq!(c.call(&["SET", "k", "v"]).await, "+OK\r\n");
    assert_eq!(c.call(&["GET", "k"]).await, "$1\r\nv\r\n");
    assert_eq!(c.call(&["PING"]).await, "+PONG\r\n");

    let (head, body) = http(admin, "GET /metrics HTTP/1.1\r\n\r\n").await;
    assert_eq!(head, "HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nContent-Length: 13\r\nConnection: close");
    assert_eq!(body, "unauthorized\n");
    let (head, _) = http(admin, "GET /metrics HTTP/1.1\r\nAuthorization: Bearer foobaz\r\n\r\n").await;
    assert!(head.starts_with("HTTP/1.1 401"), "{head}");
    // /healthz says only whether writes are taken: no token needed.
    let (head, _) = http(admin, "GET /healthz HTTP/1.1\r\n\r\n").await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");

    let (head, body) = http(admin, "GET /metrics HTTP/1.1\r\nauthorization: bearer foobar\r\n\r\n").await;
    assert!(head.starts_with("HTTP/1.1 200 OK"), "{head}");
    assert_eq!(sample(&body, "basalt_command_class_duration_seconds_count{class=\"read\"}"), 1.0);
    assert_eq!(sample(&body, "basalt_command_class_duration_seconds_count{class=\"write\"}"), 1.0);
    assert_eq!(sample(&body, "basalt_command_class_duration_seconds_count{class=\"other\"}"), 1.0);
    assert_eq!(sample(&body, "basalt_command_class_duration_seconds_bucket{class=\"write\",le=\"+Inf\"}"), 1.0);
    assert!(body.contains("# TYPE basalt_fsync_duration_seconds histogram\n"));
    let fsyncs = sample(&body, "basalt_fsyncs_total");
    assert!(fsyncs >= 1.0, "{fsyncs}");
    assert_eq!(sample(&body, "basalt_fsync_duration_seconds_count"), fsyncs);
    assert_eq!(sample(&body, "basalt_fsync_duration_seconds_bucket{le=\"+Inf\"}"), fsyncs);
    assert_eq!(sample(&body, "basalt_slowlog_length"), 0.0);
    server.stop().await;
}
