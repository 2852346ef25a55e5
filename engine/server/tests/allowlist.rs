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

/// `allowlist-exempt-user`: from outside the allowlist only a first AUTH as that one user
/// (the control plane's) with its password is served; every other first command, another
/// user, or a wrong password gets the refusal line and the close, as at accept.
#[tokio::test]
async fn only_the_exempt_user_logs_in_from_outside() {
    let dir = TempDir::new("allowlist-exempt");
    let file = dir.0.join("users.acl");
    let hash = |p: &str| basalt_server::acl::hash::hash_password(p.as_bytes());
    std::fs::write(
        &file,
        format!(
            "user default on #{} ~* &* +@all\nuser basalt:control on #{} resetkeys -@all +auth +ping +info +replicaof\n",
            hash("customer-pw"),
            hash("control-pw")
        ),
    )
    .unwrap();
    let file_arg = file.to_str().unwrap().to_string();
    let flags = [("users-file", file_arg.as_str()), ("allowlist", "10.0.0.0/8"), ("allowlist-exempt-user", "basalt:control")];
    let server = start(&dir, &flags).await;
    let refusal = "-ERR client address 127.0.0.1 is not in the allowlist\r\n";

    // The control plane: AUTH then a pipeline behind it, all served.
    let mut control = server.client().await;
    control.send(&security_support::encode(&["AUTH", "basalt:control", "control-pw"])).await;
    control.send(&security_support::encode(&["PING"])).await;
    assert_eq!(control.reply().await, "+OK\r\n");
    assert_eq!(control.reply().await, "+PONG\r\n");
    assert!(control.call(&["INFO", "replication"]).await.contains("role:master"));
    // Still only what its ACL allows.
    assert!(control.call(&["GET", "k"]).await.starts_with("-NOPERM"));

    // Everyone else, whatever the first command: the refusal, then the close.
    for first in [
        vec!["PING"],
        vec!["AUTH", "default", "customer-pw"],
        vec!["AUTH", "customer-pw"],
        vec!["AUTH", "basalt:control", "wrong"],
        vec!["HELLO", "3", "AUTH", "basalt:control", "control-pw"],
        vec!["SET", "k", "v"],
    ] {
        let mut client = server.client().await;
        client.send(&security_support::encode(&first)).await;
        assert_eq!(client.until_closed().await, refusal, "{first:?}");
    }
    // An inline AUTH is not the login either.
    let mut inline = server.client().await;
    inline.send(b"AUTH basalt:control control-pw\r\n").await;
    assert_eq!(inline.until_closed().await, refusal);

    let info = control.call(&["INFO", "security"]).await;
    assert!(info.contains("rejected_connections_allowlist:7"), "{info}");
    server.stop().await;
    std::fs::remove_file(dir.0.join("allowlist.conf")).ok();

    // Without the setting nothing changes: refused at accept, before any command.
    let server = start(&dir, &[("users-file", file_arg.as_str()), ("allowlist", "10.0.0.0/8")]).await;
    let mut control = server.client().await;
    assert_eq!(control.until_closed().await, refusal);
    server.stop().await;
}
