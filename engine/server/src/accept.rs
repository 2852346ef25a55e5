//! The one accept loop every listening port runs (RESP and TLS, memcached, the admin HTTP
//! port): accept until the server is asked to stop; an accept error (EMFILE and friends) is
//! logged and backed off instead of spinning; each connection goes to `serve`, which decides
//! whether it is admitted and spawns its task.

use crate::server::Shared;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpStream;

/// How long the loop waits after a failed accept (out of file descriptors: let some close).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

pub async fn accept_loop<A, F>(shared: &Shared, port: &str, mut accept: A, mut serve: impl FnMut(TcpStream, SocketAddr))
where
    A: FnMut() -> F,
    F: Future<Output = io::Result<(TcpStream, SocketAddr)>>,
{
    loop {
        tokio::select! {
            accepted = accept() => match accepted {
                Ok((stream, peer)) => serve(stream, peer),
                Err(e) => {
                    crate::log::event("warn", "accept_failed", &[("port", port), ("error", &e.to_string())]);
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                }
            },
            _ = shared.wait_shutdown() => return,
        }
    }
}
