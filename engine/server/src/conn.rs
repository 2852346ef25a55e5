//! One connection: read what the client sent, run every complete command in the buffer (a
//! whole pipeline), wait once for the log to hold the pipeline's last write, then send all the
//! replies in one write. This is where group commit pays off: a pipeline of 32 SETs costs one
//! durability wait, and under `fsync always` many connections share one fsync.

use crate::client::Session;
use crate::blocking::BlockRequest;
use crate::dispatch;
use crate::resp::OwnedArgs;
use crate::pubsub::{self, Delivery, Subscriptions};
use crate::resp::{parse_frame, Frame, Limits, Parsed, Reply};
use crate::server::Shared;
use crate::stats::LocalStats;
use basalt_storage::Lsn;
use bytes::{Buf, BytesMut};
use std::net::SocketAddr;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Replies beyond this size are sent before the rest of the pipeline runs (after the writes
/// so far are durable), so a huge pipeline does not hold its replies in memory.
const REPLY_FLUSH_BYTES: usize = 1 << 20;
/// Redis' `client-query-buffer-limit`: a client may not buffer more than this.
const MAX_QUERY_BUFFER: usize = 1 << 30;
const READ_CHUNK: usize = 16 * 1024;

/// Where in the reply buffer the not-yet-durable replies start, so that a failed log write
/// turns them into errors instead of acknowledging writes that are not in the log.
/// How long replies wait for the blocked connections their commands woke (they run at once
/// unless the host is starved; this only keeps a stuck one from holding replies).
const SETTLE_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

struct PendingWrites {
    lsn: Option<Lsn>,
    replies_from: usize,
    commands: usize,
    /// What the batch's reads saw (dispatch::Outcome::read): other clients' writes that may
    /// not be durable yet, so the replies wait for them too (as Redis answers only after its
    /// AOF flush). 0: nothing to wait for.
    seen: Lsn,
    stats: LocalStats,
    /// Blocked connections the batch's writes woke: its replies wait until they looked at the
    /// change (as in Redis, a client blocked on a list is served before the LPUSH answers).
    woken: Vec<u64>,
}

impl PendingWrites {
    fn new() -> PendingWrites {
        PendingWrites { lsn: None, replies_from: 0, commands: 0, seen: 0, stats: LocalStats::new(), woken: Vec::new() }
    }

    /// Notes what one command left: its reply started at `mark` of the reply buffer.
    fn note(&mut self, mark: usize, outcome: dispatch::Outcome) {
        self.seen = self.seen.max(outcome.read);
        if let Some(lsn) = outcome.lsn {
            if self.lsn.is_none() {
                self.replies_from = mark;
            }
            self.lsn = Some(self.lsn.map_or(lsn, |old: Lsn| old.max(lsn)));
        }
        if self.lsn.is_some() {
            self.commands += 1;
        }
    }
}

/// Sends a refusal (accept hook said no) and closes.
pub async fn refuse<S: AsyncWrite + Unpin>(mut stream: S, reason: String) {
    let mut reply = Reply::new();
    reply.error(&format!("ERR {reason}"));
    let _ = stream.write_all(&reply.out).await;
    let _ = stream.shutdown().await;
}

/// Serves one client until it disconnects, sends QUIT, breaks the protocol or the server stops.
pub async fn serve<S>(shared: Arc<Shared>, stream: S, peer: SocketAddr, local: SocketAddr)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let handle = shared.clients.register(peer, local);
    let id = handle.id;
    let authenticated = if shared.auth.requires_auth() { None } else { Some("default".to_string()) };
    let handle_for_kill = handle.clone();
    let mut session = Session::new(handle, authenticated);
    let stop = async {
        tokio::select! {
            _ = shared.wait_shutdown() => {}
            _ = handle_for_kill.killed() => {}
        }
    };
    crate::until::until(serve_loop(&shared, stream, &mut session), stop).await;
    session.unwatch(&shared.db);
    if let Some(subs) = session.subs.take() {
        shared.pubsub.forget(id, &subs);
    }
    shared.clients.unregister(id);
}

async fn serve_loop<S>(shared: &Shared, mut stream: S, session: &mut Session)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut input = BytesMut::with_capacity(READ_CHUNK);
    let mut frame = Frame::new();
    let mut reply = Reply::new();
    // Bytes the next frame needs before it is worth parsing again (large bulk strings).
    let mut need = 0usize;
    let mut pending = PendingWrites::new();
    // After a blocked command: commands the client pipelined behind it are already buffered.
    let mut parse_buffered = false;
    loop {
        if !std::mem::take(&mut parse_buffered) {
            if input.capacity() - input.len() < READ_CHUNK {
                let want = need.saturating_sub(input.len()).clamp(READ_CHUNK, 64 << 20);
                input.reserve(want);
            }
            let read = match session.subs {
                // Not subscribed: the socket is all there is to wait for (a select! here drew
                // a random number per read to order its branches).
                None => stream.read_buf(&mut input).await,
                Some(_) => tokio::select! {
                    read = stream.read_buf(&mut input) => read,
                    delivery = next_delivery(&mut session.subs) => {
                        // A pub/sub message (and any others already waiting), sent at once.
                        let Some(delivery) = delivery else {
                            // The mailbox was cut: this subscriber fell too far behind.
                            let _ = stream.shutdown().await;
                            return;
                        };
                        pubsub::write_delivery(&mut reply, &delivery);
                        while reply.out.len() < REPLY_FLUSH_BYTES {
                            let Some(more) = session.subs.as_mut().and_then(|s| s.try_next()) else { break };
                            pubsub::write_delivery(&mut reply, &more);
                        }
                        if !flush(shared, &mut stream, &mut reply, &mut pending).await {
                            return;
                        }
                        continue;
                    }
                },
            };
            let read = match read {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            };
            shared.stats.net_input_bytes.fetch_add(read as u64, Relaxed);
            if input.len() < need {
                continue;
            }
        }
        let mut blocked = None;
        let mut consumed = 0usize;
        let limits = if session.user.is_some() { crate::managed::request_limits(shared) } else { Limits::UNAUTHENTICATED };
        loop {
            let buffered = &input[consumed..];
            match parse_frame(buffered, &mut frame, limits) {
                Ok(Parsed::Complete(len)) => {
                    if !frame.is_empty() {
                        let mark = reply.out.len();
                        // (P)SUBSCRIBE confirmations are pushes in RESP2 too: CLIENT REPLY OFF/SKIP
                        // does not silence them (Redis 7.0 answers them the same).
                        let pushes = pubsub::replies_are_pushes(frame.args(buffered).get(0));
                        let (outcome, woken) = basalt_storage::collect_woken(|| {
                            dispatch::execute(shared, session, &mut reply, frame.args(buffered), &mut pending.stats)
                        });
                        pending.woken.extend(woken);
                        if session.drop_reply() && !pushes {
                            reply.out.truncate(mark);
                        }
                        pending.note(mark, outcome);
                        if let Some(request) = session.blocked.take() {
                            let command = session.blocked_rerun.take().unwrap_or_else(|| OwnedArgs::copy_of(&frame.args(buffered)));
                            blocked = Some((command, request));
                        }
                    }
                    consumed += len;
                    need = 0;
                    if blocked.is_some() || session.repl_pending.is_some() {
                        break;
                    }
                    if session.close_after_reply {
                        break;
                    }
                    if reply.out.len() >= REPLY_FLUSH_BYTES
                        && !flush(shared, &mut stream, &mut reply, &mut pending).await
                    {
                        return;
                    }
                }
                Ok(Parsed::Incomplete(needed)) => {
                    // `needed` counts from the start of this frame, which `advance` below makes the buffer start.
                    need = needed;
                    break;
                }
                Err(e) => {
                    shared.stats.error_replies.fetch_add(1, Relaxed);
                    reply.error(&format!("ERR {e}"));
                    session.close_after_reply = true;
                    break;
                }
            }
        }
        input.advance(consumed);
        if need > MAX_QUERY_BUFFER {
            reply.error("ERR Protocol error: query buffer limit reached");
            session.close_after_reply = true;
        }
        session.handle.last_active_ms.store(session.handle.created.elapsed().as_millis() as u64, Relaxed);
        if !flush(shared, &mut stream, &mut reply, &mut pending).await || session.close_after_reply {
            let _ = stream.shutdown().await;
            return;
        }
        match session.repl_pending.take() {
            Some(crate::replication::Pending::Psync(request)) => {
                // The connection becomes a replication link until the replica goes away.
                let ip = session.handle.addr.ip().to_string();
                crate::replication::primary::serve(shared, stream, input, request, session.id(), ip).await;
                return;
            }
            Some(crate::replication::Pending::Wait { target, replicas, timeout }) => {
                let acked = shared.repl.wait_acked(target, replicas, timeout).await;
                reply.int(acked as i64);
                if !flush(shared, &mut stream, &mut reply, &mut pending).await {
                    return;
                }
                parse_buffered = true;
                continue;
            }
            None => {}
        }
        if let Some((command, request)) = blocked {
            if !wait_blocked(shared, &mut stream, &mut input, session, &mut reply, &mut pending, command, request).await {
                return;
            }
            if !flush(shared, &mut stream, &mut reply, &mut pending).await {
                return;
            }
            parse_buffered = true;
            continue;
        }
        // Give back the memory of a large request once it is done.
        if input.is_empty() && input.capacity() > 4 << 20 {
            input = BytesMut::with_capacity(READ_CHUNK);
        }
    }
}

/// Waits until a blocked command can run (a change of one of its keys) or times out, then
/// runs it again; again while it still finds nothing. False when the client went away.
#[allow(clippy::too_many_arguments)]
async fn wait_blocked<S>(
    shared: &Shared,
    stream: &mut S,
    input: &mut BytesMut,
    session: &mut Session,
    reply: &mut Reply,
    pending: &mut PendingWrites,
    command: OwnedArgs,
    request: BlockRequest,
) -> bool
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let flag = shared.db.blocked_flag();
    for (db, key) in &request.keys {
        shared.db.watch(*db, key, &flag);
    }
    let _counted = crate::blocking::Blocked::enter();
    let handle = session.handle.clone();
    handle.set_blocked(true);
    let gone = loop {
        let timeout = async {
            match request.deadline {
                Some(deadline) => tokio::time::sleep_until(deadline.into()).await,
                None => std::future::pending().await,
            }
        };
        let mut timed_out = false;
        tokio::select! {
            _ = flag.changed() => {}
            _ = timeout => timed_out = true,
            _ = handle.unblocked() => match handle.take_unblock() {
                Some(crate::client::Unblock::Timeout) => timed_out = true,
                Some(crate::client::Unblock::Error) => {
                    if !session.drop_reply() {
                        reply.error("UNBLOCKED client unblocked via CLIENT UNBLOCK");
                    }
                    break false;
                }
                // A wake-up left from an earlier wait.
                None => continue,
            },
            read = stream.read_buf(input) => match read {
                // Commands sent meanwhile wait in the buffer, as Redis keeps them.
                Ok(n) if n > 0 && input.len() <= MAX_QUERY_BUFFER => continue,
                _ => break true,
            },
        }
        if !timed_out {
            // Served in the order they blocked: those before it look at the change first.
            flag.my_turn().await;
        }
        flag.take_dirty();
        session.unblocking = timed_out;
        session.woken = !timed_out;
        let mark = reply.out.len();
        let (outcome, woken) =
            basalt_storage::collect_woken(|| dispatch::execute(shared, session, reply, command.args(), &mut pending.stats));
        pending.woken.extend(woken);
        session.unblocking = false;
        session.woken = false;
        flag.turn_done();
        if !timed_out && reply.out[mark..].starts_with(b"-WRONGTYPE") && waits_on_other_type(shared, &command, &request) {
            // Redis 7.0 serves a blocked client only from a key of the type it waits for; a
            // key that became another type leaves it waiting. (A destination of the wrong
            // type, BRPOPLPUSH's, is the error it answers.)
            reply.out.truncate(mark);
            session.blocked = None;
            continue;
        }
        if session.blocked.is_none() && session.drop_reply() {
            reply.out.truncate(mark);
        }
        pending.note(mark, outcome);
        if session.blocked.take().is_none() {
            break false;
        }
    };
    handle.set_blocked(false);
    for (db, key) in &request.keys {
        shared.db.unwatch(*db, key, &flag);
    }
    !gone
}

/// Whether a key the blocked command waits on holds another type than it pops (sorted sets for
/// BZPOPMIN/BZPOPMAX/BZMPOP, streams for XREAD/XREADGROUP, lists for the others).
fn waits_on_other_type(shared: &Shared, command: &OwnedArgs, request: &BlockRequest) -> bool {
    let name = command.args().get(0);
    let wanted = if name.get(..2).is_some_and(|p| p.eq_ignore_ascii_case(b"bz")) {
        basalt_storage::Kind::ZSet
    } else if name.first().is_some_and(|c| c.eq_ignore_ascii_case(&b'x')) {
        basalt_storage::Kind::Stream
    } else {
        basalt_storage::Kind::List
    };
    request.keys.iter().any(|(db, key)| shared.db.keyspace(*db).kind(key).is_some_and(|kind| kind != wanted))
}

/// The next pub/sub message for a subscribed connection; never resolves for the others.
/// None once the mailbox was cut.
async fn next_delivery(subs: &mut Option<Subscriptions>) -> Option<Delivery> {
    match subs {
        Some(subs) => subs.next().await,
        None => std::future::pending().await,
    }
}

/// Waits until the log holds the pending writes, then sends the replies. False when the
/// connection is gone.
async fn flush<S>(shared: &Shared, stream: &mut S, reply: &mut Reply, pending: &mut PendingWrites) -> bool
where
    S: AsyncWrite + Unpin,
{
    if !pending.woken.is_empty() {
        // Bounded: a woken connection that cannot get its turn must not hold this reply forever.
        let woken = std::mem::take(&mut pending.woken);
        let _ = tokio::time::timeout(SETTLE_WAIT, shared.db.blocked_turns().settled(&woken)).await;
    }
    let wrote = pending.lsn.take();
    // Lsn::MAX (a command whose reads note nothing) waits for the log's end: wait_durable
    // stops there.
    let seen = Some(std::mem::take(&mut pending.seen));
    if let Some(lsn) = wrote.max(seen).filter(|&lsn| lsn > 0) {
        let waited = shared.db.wait_durable(lsn).await.map_err(|e| crate::error::CmdError::from(e).to_string());
        // replication-mode sync: a write is acknowledged once a replica's log holds it too.
        let waited = match (waited, wrote) {
            (Ok(()), Some(_)) => shared.repl.wait_sync().await,
            (other, _) => other,
        };
        if let (Err(text), Some(_)) = (waited, wrote) {
            // Never acknowledge a write that is not in the log: every reply of this batch from
            // the first write on becomes the error.
            reply.out.truncate(pending.replies_from);
            for _ in 0..pending.commands {
                reply.error(&text);
            }
            shared.stats.error_replies.fetch_add(pending.commands as u64, Relaxed);
        }
    }
    pending.commands = 0;
    pending.replies_from = 0;
    pending.stats.flush(&shared.stats);
    if reply.out.is_empty() {
        return true;
    }
    if wrote.is_none() {
        // Replies of the connections woken with this one go out together (yield_once.rs).
        crate::yield_once::yield_once().await;
    }
    // flush: a TLS stream may keep the last records in its buffer when the socket was full.
    let ok = stream.write_all(&reply.out).await.is_ok() && stream.flush().await.is_ok();
    shared.stats.net_output_bytes.fetch_add(reply.out.len() as u64, Relaxed);
    reply.out.clear();
    if reply.out.capacity() > 4 << 20 {
        reply.out = Vec::with_capacity(16 * 1024);
    }
    ok
}
