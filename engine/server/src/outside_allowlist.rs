//! A RESP connection from an address outside the IP allowlist, when `allowlist-exempt-user`
//! names the one user who may still log in from anywhere: the control plane's own service
//! user, which fails an instance over (REPLICAOF, INFO, ROLE) from a host the customer's
//! allowlist rightly leaves out. Such a connection gets exactly one chance: its first command
//! must be `AUTH <that user> <password>` with the right password. Anything else (another
//! command, another user, a wrong password, a frame too big to be that AUTH) gets the same
//! single error line as a refusal at accept and the connection is closed, so for every other
//! client the allowlist means what it says and a stranger learns nothing more than before.
//! A good AUTH is handed on unconsumed: the connection then runs it (and what followed it)
//! as any client's, so the session is that user's from its first reply on.

use crate::resp::frame::{parse_frame, Frame, Limits, Parsed};
use crate::server::Shared;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::Ordering::Relaxed;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};

/// How long the first command may take to arrive.
const FIRST_COMMAND_TIMEOUT: Duration = Duration::from_secs(10);

/// What the accept hook decided for a RESP connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Inside the allowlist (or no allowlist): served as usual.
    Full,
    /// Outside it: only a first `AUTH` as this user lets it in.
    OnlyAs(String),
}

/// The refusal every client outside the allowlist sees (at accept, or here).
pub fn refusal(peer: &SocketAddr) -> String {
    format!("client address {} is not in the allowlist", peer.ip())
}

/// Reads the connection's first command; `Some` (the stream with what was read put back in
/// front) when it is a good `AUTH` as `user`, otherwise the refusal is sent and `None`.
pub async fn login<S>(shared: &Shared, mut stream: S, peer: SocketAddr, user: &str) -> Option<Prefixed<S>>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut buf = Vec::with_capacity(256);
    let admitted = tokio::time::timeout(FIRST_COMMAND_TIMEOUT, first_command_is_login(shared, &mut stream, &mut buf, user))
        .await
        .unwrap_or(Ok(false));
    match admitted {
        Ok(true) => Some(Prefixed { prefix: buf, read: 0, inner: stream }),
        Ok(false) => {
            if let Some(managed) = shared.managed.get() {
                managed.limits.refused_allowlist.fetch_add(1, Relaxed);
            }
            crate::log::event("warn", "connection_refused", &[("peer", &peer.to_string()), ("reason", "allowlist")]);
            let _ = stream.write_all(format!("-ERR {}\r\n", refusal(&peer)).as_bytes()).await;
            let _ = stream.shutdown().await;
            None
        }
        // The client went away before sending a whole command.
        Err(_) => None,
    }
}

async fn first_command_is_login<S>(shared: &Shared, stream: &mut S, buf: &mut Vec<u8>, user: &str) -> io::Result<bool>
where
    S: AsyncRead + Unpin,
{
    let mut frame = Frame::new();
    loop {
        match parse_frame(buf, &mut frame, Limits::UNAUTHENTICATED) {
            Ok(Parsed::Complete(_)) => {
                if frame.is_inline() {
                    return Ok(false);
                }
                let args = frame.args(buf);
                return Ok(args.len() == 3
                    && args.get(0).eq_ignore_ascii_case(b"auth")
                    && args.get(1) == user.as_bytes()
                    && shared.auth.authenticate(Some(args.get(1)), args.get(2)).is_ok());
            }
            // Past Redis' limits for a client that has not logged in: not the AUTH we wait for.
            Ok(Parsed::Incomplete(_)) if buf.len() > 2 * Limits::UNAUTHENTICATED.max_bulk_len => return Ok(false),
            Ok(Parsed::Incomplete(_)) => {
                let mut chunk = [0u8; 4096];
                let n = stream.read(&mut chunk).await?;
                if n == 0 {
                    return Err(io::ErrorKind::UnexpectedEof.into());
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            Err(_) => return Ok(false),
        }
    }
}

/// A stream that first yields bytes already read from it.
pub struct Prefixed<S> {
    prefix: Vec<u8>,
    read: usize,
    inner: S,
}

impl<S: AsyncRead + Unpin> AsyncRead for Prefixed<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, out: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        if self.read < self.prefix.len() {
            let n = (self.prefix.len() - self.read).min(out.remaining());
            let start = self.read;
            out.put_slice(&self.prefix[start..start + n]);
            self.read += n;
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.inner).poll_read(cx, out)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Prefixed<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, data)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
