//! The IP allowlist at accept: a client outside it gets one error line and is closed, one
//! inside is served; `CONFIG SET allowlist` changes it live and a restart keeps it.

mod security_support;

use security_support::{start, TempDir};

#[tokio::test]
async fn outside_refused_inside_served_and_kept_across_restart() {
    let dir = TempDir::new("allowlist");
    let server = start(&dir, &[("allowlist", "10.0.0.0/8 2001:db8::/32")]).await;
    let mut refused = server.client().await;
    assert_eq!(refused.until_closed().await, "-ERR client address 127.0.0.1 is not in the allowlist\r\n");
    server.stop().await;

    let server = start(&dir, &[("allowlist", "10.0.0.0/8, 127.0.0.0/8")]).await;
    let mut inside = server.client().await;
    assert_eq!(inside.call(&["PING"]).await, "+PONG\r\n");
    assert_eq!(inside.call(&["CONFIG", "GET", "allowlist"]).await, "*2\r\n$9\r\nallowlist\r\n$22\r\n10.0.0.0/8 127.0.0.0/8\r\n");
    assert_eq!(
        inside.call(&["CONFIG", "SET", "allowlist", "300.1.1.1"]).await,
        "-ERR CONFIG SET failed (possibly related to argument 'allowlist') - '300.1.1.1' is not an IP address or CIDR block\r\n"
    );
    // Live change: new connections from 127.0.0.1 are refused; the open one goes on.
    assert_eq!(inside.call(&["CONFIG", "SET", "allowlist", "192.168.0.0/16"]).await, "+OK\r\n");
    let mut late = server.client().await;
    assert_eq!(late.until_closed().await, "-ERR client address 127.0.0.1 is not in the allowlist\r\n");
    assert_eq!(inside.call(&["PING"]).await, "+PONG\r\n");
    let info = inside.call(&["INFO", "security"]).await;
    assert!(info.contains("rejected_connections_allowlist:1"), "{info}");
    server.stop().await;

    // The file written by CONFIG SET wins over the start option after a restart.
    let server = start(&dir, &[("allowlist", "127.0.0.1")]).await;
    let mut again = server.client().await;
    assert_eq!(again.until_closed().await, "-ERR client address 127.0.0.1 is not in the allowlist\r\n");
    server.stop().await;
    assert_eq!(std::fs::read_to_string(dir.0.join("allowlist.conf")).unwrap(), "192.168.0.0/16\n");
}

#[tokio::test]
async fn ipv6_clients() {
    let dir = TempDir::new("allowlist-v6");
    let server = start(&dir, &[("bind", "::1"), ("allowlist", "2001:db8::/32")]).await;
    let addr = server.addrs.plain.unwrap();
    assert!(addr.is_ipv6(), "{addr}");
    let mut refused = security_support::Client::new(tokio::net::TcpStream::connect(addr).await.unwrap());
    assert_eq!(refused.until_closed().await, "-ERR client address ::1 is not in the allowlist\r\n");
    server.stop().await;
    std::fs::remove_file(dir.0.join("allowlist.conf")).ok();
    let server = start(&dir, &[("bind", "::1"), ("allowlist", "::1/128")]).await;
    let mut inside = security_support::Client::new(tokio::net::TcpStream::connect(server.addrs.plain.unwrap()).await.unwrap());
    assert_eq!(inside.call(&["PING"]).await, "+PONG\r\n");
    server.stop().await;
}
