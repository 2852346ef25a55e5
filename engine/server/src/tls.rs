//! TLS on the RESP port with rustls and its `ring` provider (it builds in a third of the time
//! of aws-lc-rs and needs no cmake). A certificate chain and key in PEM; with a CA file,
//! clients must present a certificate it signed (`tls-auth-clients`, as Redis).

use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::{RootCertStore, ServerConfig};
use std::io;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::server::TlsStream;
use tokio_rustls::TlsAcceptor;

/// Whether clients must show a certificate signed by the CA (only with `tls-ca-cert-file`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientAuth {
    Required,
    Optional,
    No,
}

impl std::str::FromStr for ClientAuth {
    type Err = String;
    fn from_str(s: &str) -> Result<ClientAuth, String> {
        match s.to_ascii_lowercase().as_str() {
            "yes" | "required" => Ok(ClientAuth::Required),
            "optional" => Ok(ClientAuth::Optional),
            "no" => Ok(ClientAuth::No),
            other => Err(format!("tls-auth-clients must be yes, optional or no, not {other:?}")),
        }
    }
}

impl ClientAuth {
    /// The value `tls-auth-clients` reads back as (CONFIG GET).
    pub fn name(self) -> &'static str {
        match self {
            ClientAuth::Required => "yes",
            ClientAuth::Optional => "optional",
            ClientAuth::No => "no",
        }
    }
}

pub(crate) fn read_certs(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let pem = std::fs::read(path).map_err(|e| format!("cannot read TLS certificate {}: {e}", path.display()))?;
    let certs: Vec<_> = rustls_pemfile::certs(&mut pem.as_slice())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("TLS certificate {}: {e}", path.display()))?;
    if certs.is_empty() {
        return Err(format!("TLS certificate {}: no PEM certificate found", path.display()));
    }
    Ok(certs)
}

pub(crate) fn read_key(path: &Path) -> Result<PrivateKeyDer<'static>, String> {
    let pem = std::fs::read(path).map_err(|e| format!("cannot read TLS key {}: {e}", path.display()))?;
    rustls_pemfile::private_key(&mut pem.as_slice())
        .map_err(|e| format!("TLS key {}: {e}", path.display()))?
        .ok_or_else(|| format!("TLS key {}: no PEM private key found", path.display()))
}

/// Builds the acceptor from PEM files; every mistake is a readable start-up error.
pub fn acceptor(cert: &Path, key: &Path, ca: Option<&Path>, auth: ClientAuth) -> Result<TlsAcceptor, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?;
    let builder = match (ca, auth) {
        (Some(ca), ClientAuth::Required | ClientAuth::Optional) => {
            let mut roots = RootCertStore::empty();
            for cert in read_certs(ca)? {
                roots.add(cert).map_err(|e| format!("TLS CA {}: {e}", ca.display()))?;
            }
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider);
            let verifier = if auth == ClientAuth::Optional { verifier.allow_unauthenticated() } else { verifier };
            builder.with_client_cert_verifier(verifier.build().map_err(|e| format!("TLS CA {}: {e}", ca.display()))?)
        }
        _ => builder.with_no_client_auth(),
    };
    let mut config = builder
        .with_single_cert(read_certs(cert)?, read_key(key)?)
        .map_err(|e| format!("TLS certificate and key do not fit: {e}"))?;
    config.alpn_protocols = Vec::new();
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// A client stream: plain TCP or TLS over it.
pub enum MaybeTls {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

impl crate::guarded::OutQueue for MaybeTls {
    fn out_queue(&self) -> usize {
        match self {
            MaybeTls::Plain(s) => crate::guarded::OutQueue::out_queue(s),
            MaybeTls::Tls(s) => crate::guarded::OutQueue::out_queue(s.get_ref().0),
        }
    }
}

impl AsyncRead for MaybeTls {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            MaybeTls::Plain(s) => Pin::new(s).poll_read(cx, buf),
            MaybeTls::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for MaybeTls {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            MaybeTls::Plain(s) => Pin::new(s).poll_write(cx, data),
            MaybeTls::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, data),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            MaybeTls::Plain(s) => Pin::new(s).poll_flush(cx),
            MaybeTls::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            MaybeTls::Plain(s) => Pin::new(s).poll_shutdown(cx),
            MaybeTls::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}
