//! The primary's side of a replica's connection, after its PSYNC: answer it (continue from
//! the backlog, or a full copy of the log taken while writes go on), then send the stream and
//! read the replica's acknowledgements until it goes away or this node stops being a primary.

use super::{lock, wire, Peer};
use crate::resp::{parse_frame, Frame, Limits, Parsed};
use crate::server::Shared;
use bytes::{Buf, BytesMut};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::*};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// What PSYNC asked for: a history and the offset the replica holds (`?` and -1: nothing).
pub struct PsyncRequest {
    pub replid: String,
    pub offset: i64,
}

/// Serves a replica on the connection that sent PSYNC; returns when it is done.
pub async fn serve<S>(shared: &Shared, stream: S, input: BytesMut, req: PsyncRequest, client_id: u64, ip: String)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let repl = &shared.repl;
    let port = lock(&repl.announced).remove(&client_id).unwrap_or(0);
    let peer = Arc::new(Peer {
        client_id,
        ip: ip.clone(),
        port,
        ack: AtomicU64::new(0),
        ack_ms: AtomicU64::new(basalt_storage::now_ms()),
        online: AtomicBool::new(false),
    });
    repl.add_peer(peer.clone());
    let result = run(shared, stream, input, req, &peer).await;
    repl.remove_peer(&peer);
    let why = match &result {
        Ok(()) => "closed".to_string(),
        Err(e) => e.clone(),
    };
    crate::log::event("info", "replica_disconnected", &[("ip", &ip), ("port", &port.to_string()), ("reason", &why)]);
}

/// Where the stream for this replica starts, answering its PSYNC.
async fn answer<S: AsyncWrite + Unpin>(shared: &Shared, stream: &mut S, req: &PsyncRequest) -> Result<u64, String> {
    let repl = &shared.repl;
    let continue_at = {
        let st = lock(&repl.state);
        let b = repl.backlog();
        let off = req.offset;
        let same = req.replid == st.replid;
        let before_promotion = req.replid == st.replid2 && off <= st.second_offset;
        (off >= 0 && (same || before_promotion) && b.covers(off as u64)).then(|| (st.replid.clone(), off as u64))
    };
    if let Some((replid, offset)) = continue_at {
        repl.partial_ok.fetch_add(1, Relaxed);
        let line = format!("+CONTINUE {replid}\r\n");
        stream.write_all(line.as_bytes()).await.map_err(|e| e.to_string())?;
        return Ok(offset);
    }
    if req.replid != "?" {
        repl.partial_err.fetch_add(1, Relaxed);
    }
    repl.full_syncs.fetch_add(1, Relaxed);
    // The copy ends where the stream the replica then reads begins: both are taken while
    // nothing can be appended.
    let (copy, (replid, offset)) =
        shared.db.log_copy_at_end(|| (repl.replid(), repl.backlog().end())).map_err(|e| e.to_string())?;
    crate::log::event(
        "info",
        "replica_full_copy",
        &[("bytes", &copy.len().to_string()), ("offset", &offset.to_string())],
    );
    stream.write_all(format!("+FULLRESYNC {replid} {offset}\r\n").as_bytes()).await.map_err(|e| e.to_string())?;
    let mut pos = 0u64;
    let mut chunk = vec![0u8; wire::MAX_FRAME];
    let mut out = Vec::with_capacity(wire::MAX_FRAME + wire::HEADER);
    loop {
        let n = copy.read_at(pos, &mut chunk).map_err(|e| format!("read the log for a full copy: {e}"))?;
        if n == 0 {
            break;
        }
        pos += n as u64;
        out.clear();
        wire::frame(wire::COPY, &chunk[..n], &mut out);
        stream.write_all(&out).await.map_err(|e| e.to_string())?;
    }
    out.clear();
    wire::frame(wire::COPY_END, &[], &mut out);
    stream.write_all(&out).await.map_err(|e| e.to_string())?;
    Ok(offset)
}

async fn run<S>(shared: &Shared, stream: S, mut input: BytesMut, req: PsyncRequest, peer: &Arc<Peer>) -> Result<(), String>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let repl = &shared.repl;
    let (mut rd, mut wr) = tokio::io::split(stream);
    let mut cursor = answer(shared, &mut wr, &req).await?;
    wr.flush().await.map_err(|e| e.to_string())?;
    peer.online.store(true, Relaxed);
    peer.ack_ms.store(basalt_storage::now_ms(), Relaxed);
    let mut out = Vec::with_capacity(wire::MAX_FRAME + wire::HEADER);
    let mut chunk = Vec::with_capacity(wire::MAX_FRAME);
    let mut frame = Frame::new();
    let mut ping = tokio::time::interval(Duration::from_secs(1));
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_heard = tokio::time::Instant::now();
    loop {
        if repl.is_replica() {
            return Err("this node became a replica".into());
        }
        let notified = repl.data.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        chunk.clear();
        {
            let b = repl.backlog();
            if !b.covers(cursor) {
                return Err(format!("the replica fell behind the backlog (at {cursor}, backlog from {})", b.start()));
            }
            b.read(cursor, wire::MAX_FRAME, &mut chunk);
        }
        if !chunk.is_empty() {
            out.clear();
            wire::frame(wire::DATA, &chunk, &mut out);
            wr.write_all(&out).await.map_err(|e| e.to_string())?;
            cursor += chunk.len() as u64;
            // Read acknowledgements that are already there, without waiting.
            if let Some(Ok(n)) = futures_now(rd.read_buf(&mut input)) {
                if n == 0 {
                    return Ok(());
                }
                last_heard = tokio::time::Instant::now();
                read_acks(shared, peer, &mut input, &mut frame)?;
            }
            continue;
        }
        let timeout = Duration::from_secs(repl.timeout_secs.load(Relaxed));
        tokio::select! {
            _ = &mut notified => {}
            read = rd.read_buf(&mut input) => {
                match read {
                    Ok(0) => return Ok(()),
                    Ok(_) => {
                        last_heard = tokio::time::Instant::now();
                        read_acks(shared, peer, &mut input, &mut frame)?;
                    }
                    Err(e) => return Err(e.to_string()),
                }
            }
            _ = ping.tick() => {
                if last_heard.elapsed() > timeout {
                    return Err(format!("no acknowledgement for {} s (repl-timeout)", timeout.as_secs()));
                }
                out.clear();
                wire::frame(wire::PING, &cursor.to_le_bytes(), &mut out);
                wr.write_all(&out).await.map_err(|e| e.to_string())?;
            }
        }
    }
}

/// Polls a future once: its output if it is ready at once.
fn futures_now<F: std::future::Future>(fut: F) -> Option<F::Output> {
    let waker = std::task::Waker::noop();
    let mut cx = std::task::Context::from_waker(waker);
    let mut fut = std::pin::pin!(fut);
    match fut.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(v) => Some(v),
        std::task::Poll::Pending => None,
    }
}

/// Takes the replica's `REPLCONF ACK <offset>` commands out of `input`.
fn read_acks(shared: &Shared, peer: &Peer, input: &mut BytesMut, frame: &mut Frame) -> Result<(), String> {
    loop {
        match parse_frame(input, frame, Limits::DEFAULT) {
            Ok(Parsed::Complete(len)) => {
                let args = frame.args(input);
                if args.len() >= 3 && args.get(0).eq_ignore_ascii_case(b"replconf") && args.get(1).eq_ignore_ascii_case(b"ack") {
                    let offset = std::str::from_utf8(args.get(2)).ok().and_then(|s| s.parse::<u64>().ok());
                    if let Some(offset) = offset {
                        peer.ack.fetch_max(offset, AcqRel);
                        peer.ack_ms.store(basalt_storage::now_ms(), Relaxed);
                        shared.repl.acks.notify_waiters();
                    }
                }
                input.advance(len);
            }
            Ok(Parsed::Incomplete(_)) => return Ok(()),
            Err(e) => return Err(format!("replica sent a bad frame: {e}")),
        }
    }
}
