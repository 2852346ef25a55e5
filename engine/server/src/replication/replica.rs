//! The replica's link to its primary: connect (TLS and AUTH as configured), PSYNC with the
//! position this node holds, take a full copy if the primary cannot continue from there, then
//! apply the stream record by record, each through the store's replay path into this node's
//! own log with the position it reaches, and acknowledge what the log holds. After a break it
//! reconnects (once a second) and resumes.

use super::{lock, new_replid, wire, Link, Replication};
use crate::server::Shared;
use basalt_storage::{record_len, Lsn, RECORD_HEADER};
use bytes::{Buf, BytesMut};
use std::sync::atomic::Ordering::*;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// Starts the link for `generation`; it stops when the generation changes (REPLICAOF).
pub fn spawn(shared: Arc<Shared>, generation: u64) {
    tokio::spawn(run(shared, generation));
}

async fn run(shared: Arc<Shared>, generation: u64) {
    let repl = shared.repl.clone();
    let mut changed = repl.generation.subscribe();
    let mut stop = shared.shutdown_requested();
    // A primary that stays away is retried every second; the same reason is logged once.
    let mut last_logged = String::new();
    loop {
        if *changed.borrow() != generation {
            return;
        }
        let result = tokio::select! {
            r = link(&shared, generation) => r,
            _ = changed.wait_for(|g| *g != generation) => return,
            _ = stop.wait_for(|s| *s) => return,
        };
        let why = match result {
            Ok(()) => "the primary closed the link".to_string(),
            Err(e) => e,
        };
        {
            let mut st = lock(&repl.state);
            if *changed.borrow() != generation {
                return;
            }
            if st.link == Link::Connected {
                last_logged.clear();
            }
            st.link = Link::Connect;
            st.last_error = why.clone();
        }
        if why != last_logged {
            crate::log::event("warn", "replication_link_down", &[("reason", &why)]);
            last_logged = why;
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
            _ = changed.wait_for(|g| *g != generation) => return,
            _ = stop.wait_for(|s| *s) => return,
        }
    }
}

/// Runs `f` holding the apply lock, if this link is still the current one.
fn if_current<R>(repl: &Replication, generation: u64, f: impl FnOnce() -> Result<R, String>) -> Result<R, String> {
    let _applying = lock(&repl.apply_lock);
    if *repl.generation.borrow() != generation {
        return Err("the link was replaced".into());
    }
    f()
}

fn set_link(repl: &Replication, link: Link) {
    let mut st = lock(&repl.state);
    st.link = link;
    st.last_io = Some(Instant::now());
}

/// Reads one reply line of the handshake.
async fn line<S: AsyncRead + Unpin>(io: &mut S, buf: &mut BytesMut, timeout: Duration) -> Result<String, String> {
    loop {
        if let Some(end) = buf.windows(2).position(|w| w == b"\r\n") {
            let text = String::from_utf8_lossy(&buf[..end]).into_owned();
            buf.advance(end + 2);
            return Ok(text);
        }
        if buf.len() > 64 << 10 {
            return Err("the primary sent an overlong line".into());
        }
        match tokio::time::timeout(timeout, io.read_buf(buf)).await {
            Err(_) => return Err("timed out waiting for the primary".into()),
            Ok(Ok(0)) => return Err("the primary closed the connection".into()),
            Ok(Err(e)) => return Err(e.to_string()),
            Ok(Ok(_)) => {}
        }
    }
}

/// Sends a command and returns its one-line reply (an error reply is an error).
async fn call<S: AsyncRead + AsyncWrite + Unpin>(io: &mut S, buf: &mut BytesMut, args: &[&[u8]], timeout: Duration) -> Result<String, String> {
    let mut out = format!("*{}\r\n", args.len()).into_bytes();
    for a in args {
        out.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
        out.extend_from_slice(a);
        out.extend_from_slice(b"\r\n");
    }
    io.write_all(&out).await.map_err(|e| e.to_string())?;
    let reply = line(io, buf, timeout).await?;
    if let Some(err) = reply.strip_prefix('-') {
        let what = String::from_utf8_lossy(args[0]).to_ascii_uppercase();
        return Err(format!("the primary refused {what}: {err}"));
    }
    Ok(reply)
}

async fn link(shared: &Arc<Shared>, generation: u64) -> Result<(), String> {
    let repl = &shared.repl;
    let (host, port) = lock(&repl.state).master.clone().ok_or("no primary configured")?;
    let cfg = shared.config().replication;
    let timeout = Duration::from_secs(repl.timeout_secs.load(Relaxed));
    set_link(repl, Link::Connecting);
    let addr = crate::launch::host_port(&host, port);
    let tcp = tokio::time::timeout(Duration::from_secs(5), tokio::net::TcpStream::connect(&addr))
        .await
        .map_err(|_| format!("connect to {addr}: timed out"))?
        .map_err(|e| format!("connect to {addr}: {e}"))?;
    let _ = tcp.set_nodelay(true);
    let mut io: Box<dyn Io> = if cfg.tls {
        Box::new(super::tls_client::connect(&shared.config().listeners, &host, tcp).await?)
    } else {
        Box::new(tcp)
    };
    let mut buf = BytesMut::with_capacity(64 << 10);
    if let Some(password) = cfg.password()? {
        match &cfg.masteruser {
            Some(user) => call(&mut io, &mut buf, &[b"AUTH", user.as_bytes(), password.as_bytes()], timeout).await?,
            None => call(&mut io, &mut buf, &[b"AUTH", password.as_bytes()], timeout).await?,
        };
    }
    call(&mut io, &mut buf, &[b"PING"], timeout).await?;
    let own_port = shared.local_addr.port().to_string();
    call(&mut io, &mut buf, &[b"REPLCONF", b"listening-port", own_port.as_bytes()], timeout).await?;
    call(&mut io, &mut buf, &[b"REPLCONF", b"capa", b"basalt-log"], timeout).await?;
    let (replid, offset) = {
        let st = lock(&repl.state);
        (st.replid.clone(), repl.offset())
    };
    // Offset 0: nothing to continue from (Redis' `PSYNC ? -1`).
    let (asked_id, asked_offset) = if offset == 0 { ("?".to_string(), "-1".to_string()) } else { (replid, offset.to_string()) };
    let answer = call(&mut io, &mut buf, &[b"PSYNC", asked_id.as_bytes(), asked_offset.as_bytes()], timeout).await?;
    let words: Vec<&str> = answer.trim_start_matches('+').split_whitespace().collect();
    match words.as_slice() {
        ["FULLRESYNC", id, off] if id.len() == 40 => {
            let off: u64 = off.parse().map_err(|_| format!("bad FULLRESYNC offset {off:?}"))?;
            full_copy(shared, generation, &mut io, &mut buf, id, off, timeout).await?;
        }
        ["CONTINUE", id] if id.len() == 40 => {
            // The primary may have been promoted since: its history continues ours.
            let mut st = lock(&repl.state);
            if st.replid != *id {
                st.replid2 = std::mem::replace(&mut st.replid, id.to_string());
                st.second_offset = offset as i64;
            }
            crate::log::event("info", "replication_partial_resync", &[("offset", &offset.to_string())]);
        }
        _ => return Err(format!("unexpected answer to PSYNC: {answer}")),
    }
    set_link(repl, Link::Connected);
    stream(shared, generation, io, buf, timeout).await
}

/// Reads more from the primary into `buf`, within `repl-timeout`.
async fn read_frames<S: AsyncRead + Unpin>(io: &mut S, buf: &mut BytesMut, timeout: Duration) -> Result<(), String> {
    match tokio::time::timeout(timeout, io.read_buf(buf)).await {
        Err(_) => Err(format!("nothing from the primary for {} s (repl-timeout)", timeout.as_secs())),
        Ok(Ok(0)) => Err("the primary closed the connection".into()),
        Ok(Err(e)) => Err(e.to_string()),
        Ok(Ok(_)) => Ok(()),
    }
}

/// Applies every whole record at the start of `pending` and removes it; returns the last LSN.
/// With `stream_id`, each record carries the position it brings this node to, and goes into
/// the backlog.
fn apply_records(shared: &Shared, pending: &mut BytesMut, stream_id: Option<&[u8; 40]>) -> Result<Lsn, String> {
    let repl = &shared.repl;
    let mut last = 0;
    while pending.len() >= RECORD_HEADER {
        let len = record_len(pending).unwrap_or(usize::MAX);
        if pending.len() < len {
            break;
        }
        let record = pending.split_to(len);
        let pos = stream_id.map(|id| (*id, repl.offset() + len as u64));
        let lsn = shared.db.apply_replicated(&record, pos.as_ref()).map_err(|e| format!("applying a record from the primary: {e}"))?;
        if stream_id.is_some() {
            repl.feed(&record);
        }
        last = last.max(lsn);
    }
    Ok(last)
}

async fn full_copy<S: AsyncRead + Unpin>(
    shared: &Arc<Shared>,
    generation: u64,
    io: &mut S,
    buf: &mut BytesMut,
    replid: &str,
    offset: u64,
    timeout: Duration,
) -> Result<(), String> {
    let repl = &shared.repl;
    set_link(repl, Link::Sync);
    crate::log::event("info", "replication_full_copy_started", &[("offset", &offset.to_string())]);
    let started = Instant::now();
    if_current(repl, generation, || {
        shared.db.reset_for_full_copy().map_err(|e| e.to_string())?;
        // Until the copy is whole this node holds no history it could resume.
        repl.reset_to(&new_replid(), 0);
        Ok(())
    })?;
    let mut pending = BytesMut::new();
    let mut bytes = 0u64;
    'copy: loop {
        while let Some((kind, range)) = wire::parse(buf)? {
            match kind {
                wire::COPY => {
                    pending.extend_from_slice(&buf[range.clone()]);
                    bytes += range.len() as u64;
                    buf.advance(range.end);
                    if_current(repl, generation, || apply_records(shared, &mut pending, None))?;
                }
                wire::COPY_END => {
                    buf.advance(range.end);
                    break 'copy;
                }
                _ => return Err("the primary sent stream data inside the full copy".into()),
            }
        }
        read_frames(io, buf, timeout).await?;
        lock(&repl.state).last_io = Some(Instant::now());
    }
    if !pending.is_empty() {
        return Err("the full copy ended inside a record".into());
    }
    let mut id = [0u8; 40];
    id.copy_from_slice(replid.as_bytes());
    let lsn = if_current(repl, generation, || {
        let lsn = shared.db.log_repl_pos(&(id, offset)).map_err(|e| e.to_string())?;
        repl.reset_to(replid, offset);
        Ok(lsn)
    })?;
    shared.db.wait_durable(lsn).await.map_err(|e| e.to_string())?;
    crate::log::event(
        "info",
        "replication_full_copy_done",
        &[("bytes", &bytes.to_string()), ("ms", &started.elapsed().as_millis().to_string())],
    );
    Ok(())
}

async fn stream(shared: &Arc<Shared>, generation: u64, io: Box<dyn Io>, mut buf: BytesMut, timeout: Duration) -> Result<(), String> {
    let repl = &shared.repl;
    let (mut rd, wr) = tokio::io::split(io);
    // Acknowledgements go out from their own task: the log may take an fsync to hold a batch,
    // and the next batch is read and applied meanwhile.
    let (ack_tx, ack_rx) = tokio::sync::watch::channel((0 as Lsn, repl.offset()));
    let acker = tokio::spawn(acknowledge(shared.clone(), wr, ack_rx));
    struct Abort(tokio::task::JoinHandle<Result<(), String>>);
    impl Drop for Abort {
        fn drop(&mut self) {
            self.0.abort();
        }
    }
    let acker = Abort(acker);
    let mut pending = BytesMut::new();
    loop {
        while let Some((kind, range)) = wire::parse(&buf)? {
            match kind {
                wire::DATA => pending.extend_from_slice(&buf[range.clone()]),
                wire::PING => {}
                _ => return Err("the primary sent a full copy frame inside the stream".into()),
            }
            buf.advance(range.end);
        }
        if !pending.is_empty() {
            let id = lock(&repl.state).replid.clone();
            let mut idb = [0u8; 40];
            idb.copy_from_slice(&id.as_bytes()[..40]);
            let lsn = if_current(repl, generation, || apply_records(shared, &mut pending, Some(&idb)))?;
            if lsn > 0 {
                let _ = ack_tx.send((lsn, repl.offset()));
            }
        }
        if acker.0.is_finished() {
            return Err("the acknowledgement task stopped".into());
        }
        read_frames(&mut rd, &mut buf, timeout).await?;
        lock(&repl.state).last_io = Some(Instant::now());
    }
}

/// Sends `REPLCONF ACK` for what the log holds: after each batch once it is durable (per this
/// node's fsync policy), and once a second.
async fn acknowledge<W: AsyncWrite + Unpin>(
    shared: Arc<Shared>,
    mut wr: W,
    mut batches: tokio::sync::watch::Receiver<(Lsn, u64)>,
) -> Result<(), String> {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    loop {
        tokio::select! {
            changed = batches.changed() => if changed.is_err() { return Ok(()) },
            _ = tick.tick() => {}
        }
        let (lsn, offset) = *batches.borrow_and_update();
        shared.db.wait_durable(lsn).await.map_err(|e| e.to_string())?;
        wr.write_all(&wire::ack(offset)).await.map_err(|e| e.to_string())?;
        wr.flush().await.map_err(|e| e.to_string())?;
    }
}
