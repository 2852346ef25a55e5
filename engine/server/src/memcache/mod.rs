//! The memcached text protocol on its own port (`--memcached-port`), over the same store as
//! RESP and with the same durability: like a RESP pipeline, every complete request in the
//! buffer runs, the connection waits once for the log to hold the last write, then sends all
//! replies. `noreply` requests are still durable before the next replies go out.
//!
//! Users: when the `default` user needs a password, a client must first authenticate the way
//! memcached 1.6's ASCII auth does it (`set <any key> 0 0 <n>` with data `user password`);
//! afterwards the user's ACL decides which commands (by their RESP twins: `get`, `set`,
//! `append`, `del`, `incrby`, `expire`, `flushall`) and which keys it may use.
//!
//! # Layout
//! - `parse.rs`    — framing of requests and data blocks.
//! - `commands.rs` — the commands over `basalt_storage::Db`.
//! - `cas.rs`      — CAS uniques beside the values (flags are stored with them).
//! - `stats.rs`    — the `stats` reply.

pub mod cas;
pub mod commands;
pub mod parse;
pub mod stats;

use crate::acl::Acl;
use crate::guarded::Guarded;
use crate::limits::ConnLimits;
use crate::listener::AcceptHook;
use crate::metrics::Metrics;
use crate::server::Shared;
use basalt_storage::Lsn;
use bytes::{Buf, BytesMut};
use parse::{Parsed, Request, StoreMode};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What `version` answers: the memcached release whose protocol is followed, and Basalt's.
pub const VERSION: &str = concat!("1.6.0-basalt-", env!("CARGO_PKG_VERSION"));

const READ_CHUNK: usize = 16 * 1024;
/// Replies beyond this are sent (after their writes are durable) before the rest runs.
const REPLY_FLUSH_BYTES: usize = 1 << 20;

#[derive(Default)]
pub struct McStats {
    pub curr_connections: AtomicU64,
    pub total_connections: AtomicU64,
    pub cmd_get: AtomicU64,
    pub cmd_set: AtomicU64,
    pub cmd_touch: AtomicU64,
    pub cmd_flush: AtomicU64,
    pub cmd_delete: AtomicU64,
    pub get_hits: AtomicU64,
    pub get_misses: AtomicU64,
    pub incr_decr: AtomicU64,
    pub auth_cmds: AtomicU64,
    pub auth_errors: AtomicU64,
}

/// Everything the memcached port shares between its connections.
pub struct Memcache {
    pub shared: Arc<Shared>,
    pub cas: cas::CasTable,
    pub stats: McStats,
    pub acl: Option<Arc<Acl>>,
    pub gate: Arc<dyn AcceptHook>,
    pub limits: Arc<ConnLimits>,
    pub metrics: Option<Arc<Metrics>>,
}

impl Memcache {
    pub fn new(
        shared: Arc<Shared>,
        acl: Option<Arc<Acl>>,
        gate: Arc<dyn AcceptHook>,
        limits: Arc<ConnLimits>,
        metrics: Option<Arc<Metrics>>,
    ) -> Memcache {
        Memcache { shared, cas: cas::CasTable::default(), stats: McStats::default(), acl, gate, limits, metrics }
    }
}

/// Accepts memcached clients until the server shuts down.
pub async fn serve(listener: TcpListener, mc: Arc<Memcache>) {
    crate::accept::accept_loop(&mc.shared.clone(), "memcached", || listener.accept(), |stream, peer| {
        if let Err(reason) = mc.gate.check(&peer) {
            tokio::spawn(refuse(stream, reason));
            return;
        }
        let _ = stream.set_nodelay(true);
        let mc = mc.clone();
        tokio::spawn(async move {
            let stream = Guarded::new(stream, mc.limits.clone());
            mc.stats.total_connections.fetch_add(1, Relaxed);
            mc.stats.curr_connections.fetch_add(1, Relaxed);
            crate::until::until(connection(&mc, stream), mc.shared.wait_shutdown()).await;
            mc.stats.curr_connections.fetch_sub(1, Relaxed);
        });
    })
    .await;
}

async fn refuse(mut stream: TcpStream, reason: String) {
    let _ = stream.write_all(format!("SERVER_ERROR {reason}\r\n").as_bytes()).await;
    let _ = stream.shutdown().await;
}

/// The RESP command whose ACL permission a memcached request needs.
/// Whether the request may change keys (refused on a replica; see `command_of`).
fn may_write(request: &Request<'_>) -> bool {
    !matches!(command_of(request), "get" | "info" | "ping")
}

fn command_of(request: &Request<'_>) -> &'static str {
    match request {
        Request::Get { touch: None, .. } => "get",
        Request::Get { .. } => "getex",
        Request::Store { mode: StoreMode::Append | StoreMode::Prepend, .. } => "append",
        Request::Store { .. } => "set",
        Request::Delete { .. } => "del",
        Request::Incr { decr: false, .. } => "incrby",
        Request::Incr { .. } => "decrby",
        Request::Touch { .. } => "expire",
        Request::FlushAll { .. } => "flushall",
        Request::Stats { .. } => "info",
        Request::Version | Request::Verbosity { .. } | Request::Quit => "ping",
    }
}

/// The keys a request touches, for the ACL's key patterns.
fn keys_of<'a>(request: &Request<'a>) -> Vec<&'a [u8]> {
    match request {
        Request::Get { keys, .. } => keys.iter().collect(),
        Request::Store { key, .. } | Request::Delete { key, .. } | Request::Incr { key, .. } | Request::Touch { key, .. } => vec![*key],
        Request::FlushAll { .. } | Request::Stats { .. } | Request::Version | Request::Verbosity { .. } | Request::Quit => vec![],
    }
}

fn request_name(request: &Request<'_>) -> &'static str {
    match request {
        Request::Get { name, .. } => name,
        Request::Store { mode, .. } => mode.name(),
        Request::Delete { .. } => "delete",
        Request::Incr { decr: false, .. } => "incr",
        Request::Incr { .. } => "decr",
        Request::Touch { .. } => "touch",
        Request::FlushAll { .. } => "flush_all",
        Request::Version => "version",
        Request::Stats { .. } => "stats",
        Request::Verbosity { .. } => "verbosity",
        Request::Quit => "quit",
    }
}

/// Replies not yet sent because the writes before them are not yet durable.
struct Pending {
    lsn: Option<Lsn>,
    replies_from: usize,
    writes: usize,
    /// What the gets read (`basalt_storage::seen`): a reply never shows another connection's
    /// write before it is durable. 0: nothing to wait for.
    seen: Lsn,
}

async fn connection(mc: &Memcache, mut stream: Guarded<TcpStream>) {
    let needs_auth = mc.acl.as_ref().map(|a| crate::auth::Authenticator::requires_auth(a.as_ref())).unwrap_or(false);
    let mut user: Option<String> = if needs_auth { None } else { Some("default".to_string()) };
    let mut input = BytesMut::with_capacity(READ_CHUNK);
    let mut out: Vec<u8> = Vec::with_capacity(READ_CHUNK);
    let mut swallow = 0usize;
    loop {
        if input.capacity() - input.len() < READ_CHUNK {
            input.reserve(READ_CHUNK);
        }
        match stream.read_buf(&mut input).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let mut pending = Pending { lsn: None, replies_from: 0, writes: 0, seen: 0 };
        let mut close = false;
        loop {
            if swallow > 0 {
                let n = swallow.min(input.len());
                input.advance(n);
                swallow -= n;
                if swallow > 0 {
                    break;
                }
            }
            let (len, request) = match parse::parse(&input) {
                Parsed::Incomplete => break,
                Parsed::Refused { len, swallow: skip, reply, noreply, close: must_close } => {
                    if !noreply {
                        out.extend_from_slice(reply.as_bytes());
                        out.extend_from_slice(b"\r\n");
                    }
                    input.advance(len.min(input.len()));
                    swallow = skip;
                    if must_close {
                        close = true;
                        break;
                    }
                    continue;
                }
                Parsed::Request { len, request } => (len, request),
            };
            // `request` borrows `input`: run it, then advance.
            let mark = out.len();
            let started = Instant::now();
            let name = request_name(&request);
            let mut quit = matches!(request, Request::Quit);
            // A login (ASCII auth's `set`) is no storage command: not counted as one.
            let logging_in = user.is_none();
            match authorize(mc, &mut user, &request) {
                // A replica, a fenced primary, or sync mode without a replica: no writes.
                Gatekeeper::Run if may_write(&request) && mc.shared.repl.write_refusal().is_some() => {
                    let text = mc.shared.repl.write_refusal().unwrap_or_default();
                    out.extend_from_slice(format!("SERVER_ERROR {text}\r\n").as_bytes());
                }
                Gatekeeper::Run => {
                    let mut ctx = commands::Ctx { shared: &mc.shared, cas: &mc.cas, stats: &mc.stats, out: &mut out, lsn: None };
                    let write = may_write(&request);
                    // A get reads through Keyspace::read, which notes what it saw.
                    basalt_storage::seen::take();
                    commands::execute(&mut ctx, request);
                    pending.seen = pending.seen.max(basalt_storage::seen::take());
                    if write && ctx.lsn.is_none() {
                        // It changed nothing (NOT_STORED, EXISTS, NOT_FOUND): its reply tells
                        // what it read, so it waits as a read of the log's end.
                        pending.seen = Lsn::MAX;
                    }
                    if let Some(lsn) = ctx.lsn {
                        if pending.lsn.is_none() {
                            pending.replies_from = mark;
                        }
                        pending.lsn = Some(pending.lsn.map_or(lsn, |old: Lsn| old.max(lsn)));
                    }
                    if pending.lsn.is_some() {
                        pending.writes += 1;
                    }
                }
                Gatekeeper::Reply(text, then_close) => {
                    out.extend_from_slice(text.as_bytes());
                    out.extend_from_slice(b"\r\n");
                    quit |= then_close;
                }
            }
            if let (Some(metrics), false) = (&mc.metrics, logging_in) {
                metrics.observe_memcache(name, started.elapsed().as_micros() as u64);
            }
            input.advance(len);
            if quit {
                close = true;
                break;
            }
            if out.len() >= REPLY_FLUSH_BYTES && !flush(mc, &mut stream, &mut out, &mut pending).await {
                return;
            }
        }
        if !flush(mc, &mut stream, &mut out, &mut pending).await || close {
            let _ = stream.shutdown().await;
            return;
        }
        if input.is_empty() && input.capacity() > 4 << 20 {
            input = BytesMut::with_capacity(READ_CHUNK);
        }
    }
}

enum Gatekeeper {
    Run,
    Reply(String, bool),
}

/// ASCII auth for a connection that must log in, then the user's ACL.
fn authorize(mc: &Memcache, user: &mut Option<String>, request: &Request<'_>) -> Gatekeeper {
    let Some(acl) = &mc.acl else {
        return Gatekeeper::Run;
    };
    let Some(name) = user.as_deref() else {
        let Request::Store { data, .. } = request else {
            return Gatekeeper::Reply("CLIENT_ERROR unauthenticated".to_string(), true);
        };
        mc.stats.auth_cmds.fetch_add(1, Relaxed);
        let text = String::from_utf8_lossy(data);
        let mut words = text.trim_end().splitn(2, ' ');
        let (Some(login), Some(password)) = (words.next(), words.next()) else {
            mc.stats.auth_errors.fetch_add(1, Relaxed);
            return Gatekeeper::Reply("CLIENT_ERROR authentication failure".to_string(), false);
        };
        return match crate::auth::Authenticator::authenticate(acl.as_ref(), Some(login.as_bytes()), password.as_bytes()) {
            Ok(who) => {
                *user = Some(who);
                Gatekeeper::Reply("STORED".to_string(), false)
            }
            Err(_) => {
                mc.stats.auth_errors.fetch_add(1, Relaxed);
                Gatekeeper::Reply("CLIENT_ERROR authentication failure".to_string(), false)
            }
        };
    };
    if acl.unrestricted(name) {
        return Gatekeeper::Run;
    }
    match acl.permit_named(name, command_of(request), &keys_of(request)) {
        Ok(()) => Gatekeeper::Run,
        Err(denied) => Gatekeeper::Reply(format!("CLIENT_ERROR {denied}"), false),
    }
}

async fn flush(mc: &Memcache, stream: &mut Guarded<TcpStream>, out: &mut Vec<u8>, pending: &mut Pending) -> bool {
    let wrote = pending.lsn.take();
    let seen = Some(std::mem::take(&mut pending.seen));
    if let Some(lsn) = wrote.max(seen).filter(|&lsn| lsn > 0) {
        let waited = mc.shared.db.wait_durable(lsn).await.map_err(|e| e.to_string());
        // replication-mode sync: acknowledged once a replica's log holds the writes too.
        let waited = match (waited, wrote) {
            (Ok(()), Some(_)) => mc.shared.repl.wait_sync().await,
            (other, _) => other,
        };
        if let (Err(e), Some(_)) = (waited, wrote) {
            out.truncate(pending.replies_from);
            let text = format!("SERVER_ERROR {}\r\n", e.replace(['\r', '\n'], " "));
            for _ in 0..pending.writes {
                out.extend_from_slice(text.as_bytes());
            }
        }
    }
    pending.writes = 0;
    if out.is_empty() {
        return true;
    }
    if wrote.is_none() {
        // Replies of the connections woken with this one go out together (yield_once.rs).
        crate::yield_once::yield_once().await;
    }
    let ok = stream.write_all(out).await.is_ok();
    out.clear();
    if out.capacity() > 4 << 20 {
        *out = Vec::with_capacity(READ_CHUNK);
    }
    ok
}
