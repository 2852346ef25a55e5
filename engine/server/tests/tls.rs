//! TLS on the RESP port: a throwaway CA and certificates made with the openssl CLI, a rustls
//! client that trusts only that CA, the plaintext port beside it, and client certificates
//! when the server is given a CA to check them against.

mod security_support;
#[path = "common/pki.rs"]
mod pki;

use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::{ClientConfig, RootCertStore};
use pki::make_pki;
use security_support::{start, Client, TempDir};
use std::path::Path;
use std::sync::Arc;
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

fn certs(path: &Path) -> Vec<CertificateDer<'static>> {
    rustls_pemfile::certs(&mut std::fs::read(path).unwrap().as_slice()).collect::<Result<_, _>>().unwrap()
}

fn key(path: &Path) -> PrivateKeyDer<'static> {
    rustls_pemfile::private_key(&mut std::fs::read(path).unwrap().as_slice()).unwrap().unwrap()
}

async fn connect(addr: std::net::SocketAddr, pki: &Path, with_client_cert: bool) -> std::io::Result<Client<tokio_rustls::client::TlsStream<TcpStream>>> {
    let mut roots = RootCertStore::empty();
    roots.add(certs(&pki.join("ca.crt")).remove(0)).unwrap();
    let builder = ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots);
    let config = if with_client_cert {
        builder.with_client_auth_cert(certs(&pki.join("client.crt")), key(&pki.join("client.key"))).unwrap()
    } else {
        builder.with_no_client_auth()
    };
    let tcp = TcpStream::connect(addr).await?;
    let name = ServerName::try_from("127.0.0.1").unwrap();
    let tls = TlsConnector::from(Arc::new(config)).connect(name, tcp).await?;
    Ok(Client::new(tls))
}

#[tokio::test]
async fn tls_beside_plaintext_then_tls_only_with_client_certs() {
    let pki = TempDir::new("pki");
    make_pki(&pki.0);
    let dir = TempDir::new("tls");
    let (cert, key_file, ca) = (pki.0.join("server.crt"), pki.0.join("server.key"), pki.0.join("ca.crt"));
    let (cert, key_file, ca) = (cert.to_str().unwrap(), key_file.to_str().unwrap(), ca.to_str().unwrap());

    let server = start(&dir, &[("tls-port", "0"), ("tls-cert-file", cert), ("tls-key-file", key_file)]).await;
    let mut secure = connect(server.addrs.tls.unwrap(), &pki.0, false).await.expect("TLS handshake");
    assert_eq!(secure.call(&["SET", "k", "over tls"]).await, "+OK\r\n");
    let mut plain = server.client().await;
    assert_eq!(plain.call(&["GET", "k"]).await, "$8\r\nover tls\r\n");
    // Plaintext bytes on the TLS port are not a session: the connection just ends.
    let mut wrong = Client::new(TcpStream::connect(server.addrs.tls.unwrap()).await.unwrap());
    wrong.send(b"PING\r\n").await;
    assert!(!wrong.until_closed().await.contains("PONG"));
    assert_eq!(secure.call(&["PING"]).await, "+PONG\r\n");
    // A reply far bigger than the socket buffer arrives whole (TLS records left in the
    // session's buffer must be flushed, not wait for the next reply).
    let big = "x".repeat(8 << 20);
    assert_eq!(secure.call(&["SET", "big", &big]).await, "+OK\r\n");
    for _ in 0..3 {
        let reply = secure.call(&["GET", "big"]).await;
        assert!(reply.len() == big.len() + 12 && reply.starts_with("$8388608\r\nxxx"), "{}", reply.len());
    }
    server.stop().await;

    let server = start(
        &dir,
        &[("plaintext", "no"), ("tls-port", "0"), ("tls-cert-file", cert), ("tls-key-file", key_file), ("tls-ca-cert-file", ca)],
    )
    .await;
    assert!(server.addrs.plain.is_none());
    let mut secure = connect(server.addrs.tls.unwrap(), &pki.0, true).await.expect("TLS with a client certificate");
    assert_eq!(secure.call(&["GET", "k"]).await, "$8\r\nover tls\r\n");
    // Without a client certificate the server refuses the session (TLS 1.3 reports it on
    // the first read).
    match connect(server.addrs.tls.unwrap(), &pki.0, false).await {
        Err(_) => {}
        Ok(mut c) => {
            c.send(&security_support::encode(&["PING"])).await;
            assert!(!c.until_closed().await.contains("PONG"));
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn bad_tls_files_are_start_errors() {
    let dir = TempDir::new("tls-bad");
    std::fs::write(dir.0.join("junk.pem"), "not a certificate").unwrap();
    let junk = dir.0.join("junk.pem");
    let junk = junk.to_str().unwrap();
    let err = security_support::try_start(&dir, &[("tls-port", "0"), ("tls-cert-file", junk), ("tls-key-file", junk)]).await.err().unwrap();
    assert!(err.contains("no PEM certificate found"), "{err}");
    let err = security_support::try_start(&dir, &[("tls-port", "0"), ("tls-cert-file", "/nonexistent.pem"), ("tls-key-file", junk)]).await.err().unwrap();
    assert!(err.contains("cannot read TLS certificate /nonexistent.pem"), "{err}");
}
