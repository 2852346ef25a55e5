//! Where connections come from. The server accepts from a `Listener`, asks the `AcceptHook`
//! whether the peer may connect (the IP allowlist of issue 3 goes here), and serves the stream
//! the listener hands over. A TLS listener (issue 3) wraps the TCP one and returns its stream.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};

/// A source of client connections.
pub trait Listener: Send + Sync + 'static {
    type Stream: AsyncRead + AsyncWrite + Unpin + Send + 'static;

    /// Waits for the next raw connection.
    fn accept(&self) -> impl Future<Output = io::Result<(TcpStream, SocketAddr)>> + Send;

    /// Turns an accepted connection into the stream the protocol runs on (a TLS handshake, or
    /// nothing). Runs in the connection's own task, so a slow handshake blocks no one else.
    fn upgrade(&self, stream: TcpStream) -> impl Future<Output = io::Result<Self::Stream>> + Send;

    fn local_addr(&self) -> io::Result<SocketAddr>;
}

/// Plain TCP.
pub struct TcpPlain {
    inner: TcpListener,
}

impl TcpPlain {
    pub async fn bind(addr: &str) -> io::Result<TcpPlain> {
        Ok(TcpPlain { inner: TcpListener::bind(addr).await? })
    }

    pub fn from_listener(inner: TcpListener) -> TcpPlain {
        TcpPlain { inner }
    }
}

impl Listener for TcpPlain {
    type Stream = TcpStream;

    async fn accept(&self) -> io::Result<(TcpStream, SocketAddr)> {
        self.inner.accept().await
    }

    async fn upgrade(&self, stream: TcpStream) -> io::Result<TcpStream> {
        Ok(stream)
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// Decides whether a peer may connect; a refusal closes the connection with the given reason.
pub trait AcceptHook: Send + Sync + 'static {
    fn check(&self, peer: &SocketAddr) -> Result<(), String>;

    /// The RESP ports ask this: as `check`, except that a hook may let a peer outside the
    /// allowlist in to log in as one user only (`outside_allowlist.rs`).
    fn admit(&self, peer: &SocketAddr) -> Result<crate::outside_allowlist::Admission, String> {
        self.check(peer).map(|()| crate::outside_allowlist::Admission::Full)
    }
}

/// Lets everyone in.
pub struct AllowAll;

impl AcceptHook for AllowAll {
    fn check(&self, _peer: &SocketAddr) -> Result<(), String> {
        Ok(())
    }
}
