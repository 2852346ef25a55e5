//! A raw client over any stream (TCP or TLS). It sends bytes as given and reads into a buffer,
//! so a test takes exactly the bytes it expects, one whole reply, or all until the close, and
//! whatever the server sent beyond that waits for the next read.

use super::resp::{encode, reply_len};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpStream, ToSocketAddrs};

/// How long one read waits before the server counts as silent.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How long `is_closed` waits for the server to close.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);

/// Room made in the buffer before a read: small because a test may hold thousands of clients
/// at once; a big reply grows the buffer by doubling.
const READ_ROOM: usize = 4096;

pub struct Client<S = TcpStream> {
    pub stream: S,
    /// Bytes read from the stream that the test has not taken yet.
    pub buf: Vec<u8>,
}

/// A plain TCP client connected to `addr`.
pub async fn connect(addr: impl ToSocketAddrs) -> Client {
    Client::new(TcpStream::connect(addr).await.expect("connect"))
}

impl<S: AsyncRead + AsyncWrite + Unpin> Client<S> {
    pub fn new(stream: S) -> Client<S> {
        Client { stream, buf: Vec::new() }
    }

    /// Writes `bytes` and flushes them: a TLS stream holds written bytes until flushed.
    pub async fn send(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).await.expect("send");
        self.stream.flush().await.expect("flush");
    }

    /// Reads more into the buffer; false when the server closed, failed or said nothing for 10 s.
    async fn fill(&mut self) -> bool {
        self.buf.reserve(READ_ROOM);
        matches!(tokio::time::timeout(READ_TIMEOUT, self.stream.read_buf(&mut self.buf)).await, Ok(Ok(k)) if k > 0)
    }

    /// Reads exactly `n` bytes (or fewer if the server closes), waiting at most 10 s a read.
    pub async fn read_n(&mut self, n: usize) -> Vec<u8> {
        while self.buf.len() < n && self.fill().await {}
        let available = n.min(self.buf.len());
        self.buf.drain(..available).collect()
    }

    /// Sends `request` and asserts the reply bytes are exactly `expected`.
    pub async fn expect(&mut self, request: &[u8], expected: &[u8]) {
        self.send(request).await;
        let got = self.read_n(expected.len()).await;
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(expected),
            "request {:?}",
            String::from_utf8_lossy(request)
        );
    }

    /// Sends a command as a multibulk frame and returns one whole reply's raw bytes.
    pub async fn call(&mut self, args: &[&[u8]]) -> Vec<u8> {
        self.send(&encode(args)).await;
        self.read_reply().await
    }

    /// Reads one complete RESP reply and asserts nothing follows it: one request, one reply.
    pub async fn read_reply(&mut self) -> Vec<u8> {
        let reply = self.next_reply().await;
        assert!(
            self.buf.is_empty(),
            "more bytes than one reply: {:?} then {:?}",
            String::from_utf8_lossy(&reply),
            String::from_utf8_lossy(&self.buf)
        );
        reply
    }

    /// Reads one complete RESP reply (any type, nested); what follows stays buffered.
    pub async fn next_reply(&mut self) -> Vec<u8> {
        loop {
            if let Some(n) = reply_len(&self.buf, 0) {
                return self.buf.drain(..n).collect();
            }
            assert!(self.fill().await, "connection closed or timed out; got {:?}", String::from_utf8_lossy(&self.buf));
        }
    }

    /// Bytes up to and including the first `end`, or all there are if the server stops first.
    pub async fn read_until(&mut self, end: &[u8]) -> Vec<u8> {
        loop {
            if let Some(at) = self.buf.windows(end.len()).position(|w| w == end) {
                return self.buf.drain(..at + end.len()).collect();
            }
            if !self.fill().await {
                return std::mem::take(&mut self.buf);
            }
        }
    }

    /// Everything until the server closes (or says nothing for 10 s).
    pub async fn read_to_close(&mut self) -> Vec<u8> {
        while self.fill().await {}
        std::mem::take(&mut self.buf)
    }

    /// True when the server closed the connection with nothing left to read (within 5 s).
    pub async fn is_closed(&mut self) -> bool {
        if !self.buf.is_empty() {
            return false;
        }
        matches!(tokio::time::timeout(CLOSE_TIMEOUT, self.stream.read_buf(&mut self.buf)).await, Ok(Ok(0)) | Ok(Err(_)))
    }
}
