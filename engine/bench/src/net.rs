//! Connections: TCP or TLS, with timeouts, and the AUTH / HELLO / SELECT handshake.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use rustls::pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

use crate::cli::{Auth, Protocol, TlsOptions};
use crate::proto::{self, Reply};

pub enum Stream {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

impl AsyncRead for Stream {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_flush(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// Everything needed to open and prepare one connection; shared by all threads.
#[derive(Clone)]
pub struct Connector {
    pub addr: SocketAddr,
    /// Every address the name resolved to; tried in order.
    pub addrs: Vec<SocketAddr>,
    pub tls: Option<(TlsConnector, ServerName<'static>)>,
    pub protocol: Protocol,
    pub auth: Option<Auth>,
    pub select_db: Option<u32>,
    pub timeout: Duration,
}

impl Connector {
    pub fn new(
        server: &str,
        port: u16,
        tls: Option<&TlsOptions>,
        protocol: Protocol,
        auth: Option<Auth>,
        select_db: Option<u32>,
        timeout: Duration,
    ) -> Result<Connector, String> {
        use std::net::ToSocketAddrs;
        let mut addrs: Vec<SocketAddr> = (server, port)
            .to_socket_addrs()
            .map_err(|e| format!("cannot resolve {server}:{port}: {e}"))?
            .collect();
        // Prefer IPv4 (servers here bind 127.0.0.1), then whatever else the name gave.
        addrs.sort_by_key(|a| !a.is_ipv4());
        let addr = *addrs.first().ok_or_else(|| format!("{server}:{port} resolves to no address"))?;
        let tls = match tls {
            Some(opts) => Some((
                TlsConnector::from(crate::tls::client_config(opts)?),
                crate::tls::server_name(&opts.sni)?,
            )),
            None => None,
        };
        Ok(Connector { addr, addrs, tls, protocol, auth, select_db, timeout })
    }

    /// Connect and run the handshake, all within the timeout.
    pub async fn open(&self) -> Result<Stream, String> {
        match tokio::time::timeout(self.timeout, self.open_inner()).await {
            Ok(r) => r,
            Err(_) => Err(format!("connection to {} timed out after {:?}", self.addr, self.timeout)),
        }
    }

    async fn open_inner(&self) -> Result<Stream, String> {
        let tcp = TcpStream::connect(&self.addrs[..])
            .await
            .map_err(|e| format!("connection to {} failed: {e}", self.addr))?;
        let _ = tcp.set_nodelay(true);
        let mut stream = match &self.tls {
            None => Stream::Plain(tcp),
            Some((connector, name)) => Stream::Tls(Box::new(
                connector
                    .connect(name.clone(), tcp)
                    .await
                    .map_err(|e| format!("TLS handshake with {} failed: {e}", self.addr))?,
            )),
        };
        self.handshake(&mut stream).await?;
        Ok(stream)
    }

    async fn handshake(&self, stream: &mut Stream) -> Result<(), String> {
        let mut conn = SyncConn::new(stream, self.protocol);
        if let (Some(auth), Protocol::MemcacheText) = (&self.auth, self.protocol) {
            // memcached 1.6's ASCII auth: a `set` of any key whose data is "user password".
            let login = match auth {
                Auth::Password(p) => format!("default {p}"),
                Auth::User(u, p) => format!("{u} {p}"),
            };
            conn.wbuf.extend_from_slice(format!("set auth 0 0 {}\r\n", login.len()).as_bytes());
            conn.wbuf.extend_from_slice(login.as_bytes());
            conn.wbuf.extend_from_slice(b"\r\n");
            let (kind, text) = conn.call().await?;
            if kind == Reply::Error {
                return Err(format!("authentication failed [{text}]"));
            }
            return Ok(());
        }
        if let Some(auth) = &self.auth {
            match auth {
                Auth::Password(p) => proto::encode_command(&mut conn.wbuf, &[b"AUTH", p.as_bytes()]),
                Auth::User(u, p) => proto::encode_command(&mut conn.wbuf, &[b"AUTH", u.as_bytes(), p.as_bytes()]),
            }
            let (kind, text) = conn.call().await?;
            if kind == Reply::Error {
                return Err(format!("authentication failed [-{text}]"));
            }
        }
        if self.protocol == Protocol::Resp3 {
            proto::encode_command(&mut conn.wbuf, &[b"HELLO", b"3"]);
            let (kind, text) = conn.call().await?;
            if kind == Reply::Error {
                return Err(format!("HELLO 3 failed [-{text}]"));
            }
        }
        if let Some(db) = self.select_db {
            proto::encode_command(&mut conn.wbuf, &[b"SELECT", db.to_string().as_bytes()]);
            let (kind, text) = conn.call().await?;
            if kind == Reply::Error {
                return Err(format!("SELECT {db} failed [-{text}]"));
            }
        }
        Ok(())
    }
}

/// One request, one reply, over a borrowed stream: handshakes and YCSB's synchronous client.
pub struct SyncConn<'a> {
    stream: &'a mut Stream,
    protocol: Protocol,
    pub wbuf: Vec<u8>,
    rbuf: Vec<u8>,
    start: usize,
    end: usize,
    /// Bytes of the last reply.
    pub last_reply_len: usize,
    last_reply_start: usize,
    /// Bytes sent and received so far.
    pub tx: u64,
    pub rx: u64,
}

impl<'a> SyncConn<'a> {
    pub fn new(stream: &'a mut Stream, protocol: Protocol) -> SyncConn<'a> {
        SyncConn { stream, protocol, wbuf: Vec::with_capacity(4096), rbuf: vec![0; 16 * 1024], start: 0, end: 0, last_reply_len: 0, last_reply_start: 0, tx: 0, rx: 0 }
    }

    /// Send `wbuf` (then clear it) and read one reply; pushes are skipped.
    /// Returns the reply kind and, for errors, the error text.
    pub async fn call(&mut self) -> Result<(Reply, String), String> {
        self.stream.write_all(&self.wbuf).await.map_err(|e| format!("write failed: {e}"))?;
        self.tx += self.wbuf.len() as u64;
        self.wbuf.clear();
        self.read_reply().await
    }

    /// The bytes of the last reply read (valid until the next read).
    pub fn last_reply(&self) -> &[u8] {
        &self.rbuf[self.last_reply_start..self.last_reply_start + self.last_reply_len]
    }

    pub async fn read_reply(&mut self) -> Result<(Reply, String), String> {
        loop {
            match proto::scan(self.protocol, &self.rbuf[self.start..self.end]).map_err(|e| e.to_string())? {
                Some((len, kind)) => {
                    let reply = &self.rbuf[self.start..self.start + len];
                    let text = if kind == Reply::Error { proto::error_text(reply) } else { String::new() };
                    self.last_reply_start = self.start;
                    self.start += len;
                    self.last_reply_len = len;
                    self.rx += len as u64;
                    if kind == Reply::Push {
                        continue;
                    }
                    return Ok((kind, text));
                }
                None => {
                    if self.start > 0 {
                        self.rbuf.copy_within(self.start..self.end, 0);
                        self.end -= self.start;
                        self.start = 0;
                    }
                    if self.end == self.rbuf.len() {
                        let grown = self.rbuf.len() * 2;
                        self.rbuf.resize(grown, 0);
                    }
                    let n = self
                        .stream
                        .read(&mut self.rbuf[self.end..])
                        .await
                        .map_err(|e| format!("read failed: {e}"))?;
                    if n == 0 {
                        return Err("connection closed by server".into());
                    }
                    self.end += n;
                }
            }
        }
    }
}
