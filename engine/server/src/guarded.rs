//! A client stream under the connection limits: it counts itself among the open connections,
//! fails a read once the client has been idle past `timeout`, and fails a write that has been
//! blocked for `output_limit_secs` while more than `output_limit_bytes` wait for the client
//! (the rest of the reply plus what sits unsent in the socket's send queue): a client that
//! stopped reading. A failed read or write ends that connection only; the others never notice.

use crate::limits::ConnLimits;
use std::io;
use std::pin::Pin;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// Bytes written to a socket that the peer has not taken yet (Linux `SIOCOUTQ`).
pub trait OutQueue {
    fn out_queue(&self) -> usize;
}

impl OutQueue for tokio::net::TcpStream {
    fn out_queue(&self) -> usize {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            let mut queued: libc::c_int = 0;
            // SAFETY: TIOCOUTQ (= SIOCOUTQ on a socket) writes one int through the pointer.
            if unsafe { libc::ioctl(self.as_raw_fd(), libc::TIOCOUTQ, &mut queued) } == 0 {
                return queued.max(0) as usize;
            }
        }
        0
    }
}

pub struct Guarded<S> {
    inner: S,
    limits: Arc<ConnLimits>,
    /// Armed while a read waits (idle timeout) or a write is stalled (output limit).
    read_deadline: Option<Pin<Box<Sleep>>>,
    write_deadline: Option<Pin<Box<Sleep>>>,
}

impl<S> Guarded<S> {
    pub fn new(inner: S, limits: Arc<ConnLimits>) -> Guarded<S> {
        limits.open.fetch_add(1, Relaxed);
        Guarded { inner, limits, read_deadline: None, write_deadline: None }
    }

    pub fn get_ref(&self) -> &S {
        &self.inner
    }
}

impl<S> Drop for Guarded<S> {
    fn drop(&mut self) {
        self.limits.open.fetch_sub(1, Relaxed);
    }
}

/// Polls `deadline`, arming it `secs` from now first; true once it has passed.
fn expired(deadline: &mut Option<Pin<Box<Sleep>>>, secs: u64, cx: &mut Context<'_>) -> bool {
    if secs == 0 {
        *deadline = None;
        return false;
    }
    let sleep = deadline.get_or_insert_with(|| Box::pin(tokio::time::sleep(Duration::from_secs(secs))));
    sleep.as_mut().poll(cx).is_ready()
}

use std::future::Future;

impl<S: AsyncRead + Unpin> AsyncRead for Guarded<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(result) => {
                this.read_deadline = None;
                Poll::Ready(result)
            }
            Poll::Pending => {
                let secs = this.limits.idle_timeout_secs.load(Relaxed);
                if expired(&mut this.read_deadline, secs, cx) {
                    this.limits.idle_closed.fetch_add(1, Relaxed);
                    return Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "client idle timeout")));
                }
                Poll::Pending
            }
        }
    }
}

impl<S: AsyncWrite + OutQueue + Unpin> AsyncWrite for Guarded<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_write(cx, data) {
            Poll::Ready(result) => {
                this.write_deadline = None;
                // A reply went out: the client is not idle while it reads it.
                this.read_deadline = None;
                Poll::Ready(result)
            }
            Poll::Pending => {
                let waiting = data.len() + this.inner.out_queue();
                if waiting as u64 > this.limits.output_limit_bytes.load(Relaxed) {
                    let secs = this.limits.output_limit_secs.load(Relaxed);
                    if expired(&mut this.write_deadline, secs, cx) {
                        this.limits.output_cut.fetch_add(1, Relaxed);
                        return Poll::Ready(Err(io::Error::new(
                            io::ErrorKind::TimedOut,
                            "client output buffer limit: the client stopped reading its replies",
                        )));
                    }
                } else {
                    this.write_deadline = None;
                }
                Poll::Pending
            }
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
