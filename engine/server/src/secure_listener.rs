//! The RESP listener of a managed instance: a plaintext port, a TLS port, or both, feeding one
//! server. Every stream it hands over is `Guarded` (idle timeout, output limit, counted for
//! maxclients). Which port a connection came in on decides whether it does a TLS handshake.

use crate::guarded::Guarded;
use crate::limits::ConnLimits;
use crate::listener::Listener;
use crate::tls::MaybeTls;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;

/// A client that has not finished the TLS handshake by then is dropped.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

pub struct SecureListener {
    plain: Option<TcpListener>,
    tls: Option<(TcpListener, TlsAcceptor)>,
    limits: Arc<ConnLimits>,
}

impl SecureListener {
    /// Binds the ports asked for; at least one of them.
    pub async fn bind(
        plain_addr: Option<&str>,
        tls: Option<(&str, TlsAcceptor)>,
        limits: Arc<ConnLimits>,
    ) -> io::Result<SecureListener> {
        if plain_addr.is_none() && tls.is_none() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "neither a plaintext nor a TLS port is configured"));
        }
        let plain = match plain_addr {
            Some(addr) => Some(TcpListener::bind(addr).await?),
            None => None,
        };
        let tls = match tls {
            Some((addr, acceptor)) => Some((TcpListener::bind(addr).await?, acceptor)),
            None => None,
        };
        Ok(SecureListener { plain, tls, limits })
    }

    pub fn plain_addr(&self) -> Option<SocketAddr> {
        self.plain.as_ref().and_then(|l| l.local_addr().ok())
    }

    pub fn tls_addr(&self) -> Option<SocketAddr> {
        self.tls.as_ref().and_then(|(l, _)| l.local_addr().ok())
    }

    fn is_tls(&self, stream: &TcpStream) -> bool {
        match (&self.tls, stream.local_addr()) {
            (Some((listener, _)), Ok(local)) => listener.local_addr().map(|l| l.port() == local.port()).unwrap_or(false),
            _ => false,
        }
    }
}

impl Listener for SecureListener {
    type Stream = Guarded<MaybeTls>;

    async fn accept(&self) -> io::Result<(TcpStream, SocketAddr)> {
        match (&self.plain, &self.tls) {
            (Some(plain), Some((tls, _))) => tokio::select! {
                accepted = plain.accept() => accepted,
                accepted = tls.accept() => accepted,
            },
            (Some(plain), None) => plain.accept().await,
            (None, Some((tls, _))) => tls.accept().await,
            (None, None) => std::future::pending().await,
        }
    }

    async fn upgrade(&self, stream: TcpStream) -> io::Result<Guarded<MaybeTls>> {
        if !self.is_tls(&stream) {
            return Ok(Guarded::new(MaybeTls::Plain(stream), self.limits.clone()));
        }
        let (_, acceptor) = self.tls.as_ref().expect("is_tls checked the TLS listener");
        let peer = stream.peer_addr().map(|a| a.to_string()).unwrap_or_default();
        match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(stream)).await {
            Ok(Ok(tls)) => Ok(Guarded::new(MaybeTls::Tls(Box::new(tls)), self.limits.clone())),
            Ok(Err(e)) => {
                crate::log::event("warn", "tls_handshake_failed", &[("peer", &peer), ("error", &e.to_string())]);
                Err(e)
            }
            Err(_) => {
                crate::log::event("warn", "tls_handshake_failed", &[("peer", &peer), ("error", "timeout")]);
                Err(io::Error::new(io::ErrorKind::TimedOut, "TLS handshake timed out"))
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        match (&self.plain, &self.tls) {
            (Some(plain), _) => plain.local_addr(),
            (None, Some((tls, _))) => tls.local_addr(),
            (None, None) => Err(io::Error::new(io::ErrorKind::NotConnected, "no port bound")),
        }
    }
}
