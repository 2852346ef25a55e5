//! Replication over TLS as a replication user: the primary speaks TLS (client certificates
//! required) and has a user allowed only PSYNC/REPLCONF/PING; the replica reads that user's
//! password from a file (never its command line), checks the primary's certificate against
//! the CA and shows its own. A wrong password keeps the link down with the reason in INFO;
//! the corrected file is read at the next attempt.

mod spawned;
#[path = "common/pki.rs"]
mod pki;
use spawned::*;
use std::time::{Duration, Instant};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn field(c: &mut Resp, name: &str) -> String {
    c.info_field("replication", name).unwrap_or_default()
}

fn wait_for(what: &str, mut ok: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !ok() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn replica_over_tls_with_a_replication_user() {
    let (pd, rd, pki_dir) = (TempDir::new("repl-tls-p"), TempDir::new("repl-tls-r"), TempDir::new("repl-pki"));
    pki::make_pki(&pki_dir.0);
    let f = |name: &str| pki_dir.0.join(name).to_str().unwrap().to_string();
    let tls_port = free_port().to_string();
    let primary = Engine::start(
        &pd.0,
        &[
            "--tls-port", &tls_port,
            "--tls-cert-file", &f("server.crt"),
            "--tls-key-file", &f("server.key"),
            "--tls-ca-cert-file", &f("ca.crt"),
            "--tls-auth-clients", "yes",
        ],
    );
    let mut p = primary.connect();
    let setuser: Vec<&[u8]> = vec![b"ACL", b"SETUSER", b"replicator", b"on", b">repl-secret", b"+psync", b"+replconf", b"+ping"];
    assert_eq!(p.cmd(&setuser), Reply::Status("OK".into()));
    assert_eq!(p.cmd(&[b"SET", b"before", b"1"]), Reply::Status("OK".into()));

    let password_file = rd.0.join("masterauth");
    std::fs::write(&password_file, "not-the-password\n").unwrap();
    let config = rd.0.join("replica.toml");
    std::fs::write(
        &config,
        format!(
            "[replication]\nreplicaof = \"127.0.0.1 {tls_port}\"\ntls-replication = \"yes\"\nmasteruser = \"replicator\"\nmasterauth-file = {:?}\n",
            password_file.to_str().unwrap()
        ),
    )
    .unwrap();
    let data = rd.0.join("data");
    let replica = Engine::start(
        &data,
        &[
            "--config", config.to_str().unwrap(),
            "--tls-ca-cert-file", &f("ca.crt"),
            "--tls-cert-file", &f("client.crt"),
            "--tls-key-file", &f("client.key"),
        ],
    );
    let mut r = replica.connect();
    wait_for("the AUTH refusal", || field(&mut r, "master_link_last_error").contains("AUTH"));
    assert_eq!(field(&mut r, "master_link_status"), "down");
    assert_eq!(r.cmd(&[b"GET", b"before"]), Reply::Bulk(None));
    // masterauth is never a flag.
    let refused = std::process::Command::new(server_bin()).args(["--masterauth", "x"]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("masterauth is not accepted on the command line"));

    std::fs::write(&password_file, "repl-secret\n").unwrap();
    wait_for("the link", || field(&mut r, "master_link_status") == "up");
    wait_for("the data", || r.cmd(&[b"GET", b"before"]) == Reply::Bulk(Some(b"1".to_vec())));
    assert_eq!(p.cmd(&[b"SET", b"after", b"2"]), Reply::Status("OK".into()));
    wait_for("the stream", || r.cmd(&[b"GET", b"after"]) == Reply::Bulk(Some(b"2".to_vec())));
    assert_eq!(field(&mut p, "connected_slaves"), "1");
    // The replication user can do nothing else.
    let mut other = primary.connect();
    assert_eq!(other.cmd(&[b"AUTH", b"replicator", b"repl-secret"]), Reply::Status("OK".into()));
    assert!(matches!(other.cmd(&[b"GET", b"before"]), Reply::Error(e) if e.starts_with("NOPERM")));
}
