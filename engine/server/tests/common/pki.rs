//! A throwaway PKI made with the openssl CLI, for TLS tests: ca.crt/ca.key,
//! server.crt/server.key and client.crt/client.key, each valid for 127.0.0.1 and localhost.

use std::path::Path;
use std::process::Command;

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl").args(args).current_dir(dir).output().expect("openssl runs");
    assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

pub fn make_pki(dir: &Path) {
    openssl(dir, &["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=basalt test CA"]);
    std::fs::write(dir.join("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n").unwrap();
    for who in ["server", "client"] {
        openssl(dir, &["req", "-newkey", "rsa:2048", "-nodes", "-keyout", &format!("{who}.key"), "-out", &format!("{who}.csr"), "-subj", &format!("/CN={who}")]);
        openssl(dir, &["x509", "-req", "-in", &format!("{who}.csr"), "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", &format!("{who}.crt"), "-days", "2", "-extfile", "san.ext"]);
    }
}
