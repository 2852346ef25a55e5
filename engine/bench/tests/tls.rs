//! --tls (rustls, ring provider) against redis-server's TLS port, with a CA made by openssl.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use support::*;

fn openssl(dir: &Path, args: &[&str]) -> bool {
    Command::new("openssl").args(args).current_dir(dir).stdout(Stdio::null()).stderr(Stdio::null()).status().map(|s| s.success()).unwrap_or(false)
}

fn make_certs(dir: &Path) -> bool {
    std::fs::write(dir.join("ext.cnf"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n").unwrap();
    openssl(dir, &["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=basalt-bench test CA"])
        && openssl(dir, &["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"])
        && openssl(dir, &["x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "ext.cnf"])
}

#[test]
fn tls_with_a_ca_file_counts_match() {
    if !on_path("openssl") || !on_path("redis-server") {
        eprintln!("SKIP: openssl or redis-server is not on PATH");
        return;
    }
    let certs = temp_dir("tls-certs");
    assert!(make_certs(&certs), "openssl could not make test certificates");
    let tls_port = free_port();
    let p = |f: &str| certs.join(f).to_string_lossy().into_owned();
    let Some(server) = redis(&[
        "--tls-port", &tls_port.to_string(), "--tls-cert-file", &p("server.crt"), "--tls-key-file", &p("server.key"),
        "--tls-ca-cert-file", &p("ca.crt"), "--tls-auth-clients", "no",
    ]) else { return };
    let tls_port = tls_port.to_string();
    let before = commandstats(server.port);
    let (out, _) = bench(&["-s", "127.0.0.1", "-p", &tls_port, "--tls", "--cacert", &p("ca.crt"), "-t", "2", "-c", "2", "-n", "300", "--ratio=1:1", "--pipeline=4", "--hide-histogram"], Duration::from_secs(30));
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let after = commandstats(server.port);
    assert_eq!(delta(&before, &after, "set") + delta(&before, &after, "get"), 1200);
    let totals = table_row(&stdout, "Totals");
    assert!(totals[0].unwrap() > 0.0);

    // Without the CA the certificate is refused: a clear error and a non-zero exit.
    let (out, took) = bench(&["-s", "127.0.0.1", "-p", &tls_port, "--tls", "-t", "1", "-c", "1", "-n", "10", "--hide-histogram"], Duration::from_secs(20));
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("TLS handshake") && stderr.contains("certificate"), "{stderr}");
    assert!(took < Duration::from_secs(5));

    // --tls-skip-verify accepts it.
    let (out, _) = bench(&["-s", "127.0.0.1", "-p", &tls_port, "--tls", "--tls-skip-verify", "-t", "1", "-c", "1", "-n", "10", "--hide-histogram"], Duration::from_secs(20));
    assert!(out.status.success(), "{}", text(&out).1);
    let _ = std::fs::remove_dir_all(certs);
}
