//! Primary–replica replication (issue 15), Redis' interface over Basalt's log.
//!
//! The replication stream is the primary's log: every record it appends, byte for byte, in log
//! order (the store calls `feed` under its append lock). Offsets count bytes of that stream,
//! as Redis' `master_repl_offset`; a replication id (40 hex digits) names one history, and a
//! promoted replica takes a new one, keeping the old as `replid2` up to where it had it.
//!
//! - `backlog.rs` — the last `repl-backlog-size` bytes of the stream, for partial resyncs.
//! - `primary.rs` — PSYNC on the primary: a full copy of the log (taken while writes go on)
//!   or a continuation from the backlog, then the stream; acknowledgements from the replica.
//! - `replica.rs` — the replica's link: connect (TLS, AUTH as `masteruser`), PSYNC, apply
//!   each record through the store's replay path into its own log, acknowledge what its log
//!   holds (per its fsync policy), reconnect and resume after a break.
//! - `wire.rs` — the frames after the PSYNC answer.
//! - `info.rs` — ROLE and INFO replication.
//! - `config.rs` — the settings.
//!
//! Writes are refused on a replica (`-READONLY`), under `read-only yes`, and in `sync` mode
//! while no replica acknowledged within `replication-sync-timeout-ms` (`-NOREPLICAS`); in
//! `sync` mode a write is acknowledged to its client only once a replica's log holds it.

pub mod backlog;
pub mod config;
pub mod info;
pub mod primary;
pub mod replica;
pub mod tls_client;
pub mod wire;

use crate::server::Shared;
use backlog::Backlog;
use basalt_storage::ReplPos;
use config::ReplicationConfig;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::*};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::{Duration, Instant};

pub const READONLY_TEXT: &str = "READONLY You can't write against a read only replica.";
pub const NOREPLICAS_TEXT: &str = "NOREPLICAS Not enough good replicas to write.";

/// The replica's link to its primary, as ROLE names it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Link {
    Connect,
    Connecting,
    Sync,
    Connected,
}

impl Link {
    pub fn name(self) -> &'static str {
        match self {
            Link::Connect => "connect",
            Link::Connecting => "connecting",
            Link::Sync => "sync",
            Link::Connected => "connected",
        }
    }
}

/// Who this node is and which history it holds.
pub struct RoleState {
    pub replid: String,
    /// The previous id (after a promotion) and the offset up to which it is shared.
    pub replid2: String,
    pub second_offset: i64,
    /// Some: a replica of this primary.
    pub master: Option<(String, u16)>,
    pub link: Link,
    pub last_io: Option<Instant>,
    pub last_error: String,
}

/// A replica connected to this primary.
pub struct Peer {
    pub client_id: u64,
    pub ip: String,
    pub port: u16,
    /// The offset its log holds (its last REPLCONF ACK) and when (unix ms).
    pub ack: AtomicU64,
    pub ack_ms: AtomicU64,
    /// Past the full copy, streaming.
    pub online: AtomicBool,
}

pub struct Replication {
    backlog: Mutex<Backlog>,
    /// New stream bytes (wakes the senders); a new acknowledgement (wakes WAIT and sync writes).
    pub data: tokio::sync::Notify,
    pub acks: tokio::sync::Notify,
    is_replica: AtomicBool,
    /// Whether the backlog keeps the stream's bytes: from the first replica that connects or
    /// from when this node follows a primary (a promoted replica's replicas continue from it),
    /// as Redis makes its backlog with the first replica. Before, the stream's offset moves on
    /// and nothing is copied: a node no replica ever read spent 2.4 % of its CPU under 4 KB
    /// writes copying each record into a backlog no one read (perf, memcached port).
    backlog_on: AtomicBool,
    pub read_only: AtomicBool,
    /// Redis' min-replicas-to-write / min-replicas-max-lag (any mode).
    pub min_replicas: AtomicU64,
    pub min_replicas_max_lag_secs: AtomicU64,
    pub sync: AtomicBool,
    pub sync_timeout_ms: AtomicU64,
    pub timeout_secs: AtomicU64,
    pub state: Mutex<RoleState>,
    pub peers: Mutex<Vec<Arc<Peer>>>,
    peer_count: AtomicUsize,
    /// Bumped when the role or primary changes: the running link stops.
    pub generation: tokio::sync::watch::Sender<u64>,
    /// Held while a replica applies a batch and while the role changes, so no received record
    /// lands after a promotion.
    pub apply_lock: Mutex<()>,
    /// REPLCONF listening-port, by client id, until its PSYNC.
    pub announced: Mutex<HashMap<u64, u16>>,
    pub full_syncs: AtomicU64,
    pub partial_ok: AtomicU64,
    pub partial_err: AtomicU64,
    shared: OnceLock<Weak<Shared>>,
}

pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A new replication id: 40 hex digits.
pub fn new_replid() -> String {
    crate::server::make_run_id()
}

pub const UNKNOWN_ID: [u8; 40] = [0; 40];

fn id_bytes(id: &str) -> [u8; 40] {
    let mut out = [b'0'; 40];
    for (o, b) in out.iter_mut().zip(id.bytes()) {
        *o = b;
    }
    out
}

impl Replication {
    /// The state at start: a replica resumes the position its log ended with.
    pub fn new(cfg: &ReplicationConfig, recovered: Option<ReplPos>) -> Replication {
        let (replid, offset) = match recovered {
            Some((id, off)) if id != UNKNOWN_ID && cfg.replicaof.is_some() => {
                (String::from_utf8_lossy(&id).into_owned(), off)
            }
            _ => (new_replid(), 0),
        };
        let (generation, _) = tokio::sync::watch::channel(0);
        Replication {
            backlog: Mutex::new(Backlog::new(cfg.backlog_bytes as usize, offset)),
            data: tokio::sync::Notify::new(),
            acks: tokio::sync::Notify::new(),
            is_replica: AtomicBool::new(cfg.replicaof.is_some()),
            backlog_on: AtomicBool::new(cfg.replicaof.is_some()),
            read_only: AtomicBool::new(cfg.read_only),
            min_replicas: AtomicU64::new(cfg.min_replicas),
            min_replicas_max_lag_secs: AtomicU64::new(cfg.min_replicas_max_lag_secs),
            sync: AtomicBool::new(cfg.sync),
            sync_timeout_ms: AtomicU64::new(cfg.sync_timeout_ms),
            timeout_secs: AtomicU64::new(cfg.timeout_secs),
            state: Mutex::new(RoleState {
                replid,
                replid2: "0".repeat(40),
                second_offset: -1,
                master: cfg.replicaof.clone(),
                link: Link::Connect,
                last_io: None,
                last_error: String::new(),
            }),
            peers: Mutex::new(Vec::new()),
            peer_count: AtomicUsize::new(0),
            generation,
            apply_lock: Mutex::new(()),
            announced: Mutex::new(HashMap::new()),
            full_syncs: AtomicU64::new(0),
            partial_ok: AtomicU64::new(0),
            partial_err: AtomicU64::new(0),
            shared: OnceLock::new(),
        }
    }

    /// Connects the store's stream to the backlog and starts the link of a configured replica.
    pub fn install(shared: &Arc<Shared>) {
        let repl = shared.repl.clone();
        let _ = repl.shared.set(Arc::downgrade(shared));
        let fed = repl.clone();
        shared.db.set_stream_hook(Box::new(move |record| {
            // A replica's own appends (its copies of received records, compaction) are not
            // the stream: it feeds what it received itself.
            if !fed.is_replica() {
                fed.feed(record);
            }
        }));
        if repl.is_replica() {
            replica::spawn(shared.clone(), *repl.generation.borrow());
        }
    }

    pub fn shared(&self) -> Option<Arc<Shared>> {
        self.shared.get().and_then(|w| w.upgrade())
    }

    pub fn is_replica(&self) -> bool {
        self.is_replica.load(Acquire)
    }

    /// Adds stream bytes (the primary's appends; a replica's received records).
    pub fn feed(&self, data: &[u8]) {
        let mut backlog = lock(&self.backlog);
        // Read under the backlog's lock: a replica's PSYNC looks at the backlog after
        // `add_peer` set it, so every byte after the offset it is answered with is kept.
        if self.backlog_on.load(Acquire) {
            backlog.push(data);
        } else {
            backlog.skip(data.len());
        }
        drop(backlog);
        if self.peer_count.load(Relaxed) > 0 {
            self.data.notify_waiters();
        }
    }

    pub fn backlog(&self) -> MutexGuard<'_, Backlog> {
        lock(&self.backlog)
    }

    /// `master_repl_offset`: the end of the stream this node has.
    pub fn offset(&self) -> u64 {
        self.backlog().end()
    }

    pub fn replid(&self) -> String {
        lock(&self.state).replid.clone()
    }

    pub fn add_peer(&self, peer: Arc<Peer>) {
        self.backlog_on.store(true, Release);
        lock(&self.peers).push(peer);
        self.peer_count.fetch_add(1, Relaxed);
    }

    pub fn remove_peer(&self, peer: &Arc<Peer>) {
        let mut peers = lock(&self.peers);
        let before = peers.len();
        peers.retain(|p| !Arc::ptr_eq(p, peer));
        self.peer_count.fetch_sub(before - peers.len(), Relaxed);
        drop(peers);
        self.acks.notify_waiters();
    }

    /// Why a write must be refused now, if it must.
    pub fn write_refusal(&self) -> Option<&'static str> {
        if self.is_replica() || self.read_only.load(Relaxed) {
            return Some(READONLY_TEXT);
        }
        if self.sync.load(Relaxed) && self.good_replicas() == 0 {
            return Some(NOREPLICAS_TEXT);
        }
        let min = self.min_replicas.load(Relaxed);
        if min > 0 && (self.acked_within(self.min_replicas_max_lag_secs.load(Relaxed) * 1000) as u64) < min {
            return Some(NOREPLICAS_TEXT);
        }
        None
    }

    /// Streaming replicas that acknowledged within `replication-sync-timeout-ms` (at least
    /// 2 s: an idle replica acknowledges once a second). Only a fast refusal: a write let
    /// through still waits for an acknowledgement and fails without one.
    pub fn good_replicas(&self) -> usize {
        self.acked_within(self.sync_timeout_ms.load(Relaxed).max(2_000))
    }

    /// Streaming replicas whose last acknowledgement is at most `window` ms old.
    pub fn acked_within(&self, window: u64) -> usize {
        let now = basalt_storage::now_ms();
        lock(&self.peers)
            .iter()
            .filter(|p| p.online.load(Relaxed) && now.saturating_sub(p.ack_ms.load(Relaxed)) <= window)
            .count()
    }

    /// Replicas whose log holds `target` now.
    pub fn acked_now(&self, target: u64) -> usize {
        self.acked(target)
    }

    fn acked(&self, target: u64) -> usize {
        lock(&self.peers).iter().filter(|p| p.ack.load(Acquire) >= target).count()
    }

    /// Waits until `n` replicas acknowledged `target` or `timeout` passes (None: no limit);
    /// returns how many did.
    pub async fn wait_acked(&self, target: u64, n: usize, timeout: Option<Duration>) -> usize {
        let deadline = timeout.map(|t| tokio::time::Instant::now() + t);
        loop {
            let notified = self.acks.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let count = self.acked(target);
            if count >= n {
                return count;
            }
            match deadline {
                Some(d) => {
                    if tokio::time::timeout_at(d, notified).await.is_err() {
                        return self.acked(target);
                    }
                }
                None => notified.await,
            }
        }
    }

    /// In `sync` mode: waits until a replica holds everything written so far. The error is
    /// the reply for writes no replica acknowledged in time.
    pub async fn wait_sync(&self) -> Result<(), String> {
        if !self.sync.load(Relaxed) || self.is_replica() {
            return Ok(());
        }
        let target = self.offset();
        let ms = self.sync_timeout_ms.load(Relaxed);
        if self.wait_acked(target, 1, Some(Duration::from_millis(ms))).await >= 1 {
            return Ok(());
        }
        Err(format!(
            "NOREPLICAS replication-mode sync: no replica acknowledged the write within {ms} ms (it may or may not have been applied)"
        ))
    }

    /// REPLICAOF host port (Some) or NO ONE (None).
    pub fn replicaof(&self, target: Option<(String, u16)>) -> Result<(), String> {
        let shared = self.shared().ok_or("the server is stopping")?;
        let _applying = lock(&self.apply_lock);
        let mut st = lock(&self.state);
        match target {
            None => {
                if !self.is_replica() {
                    return Ok(());
                }
                // Promotion: a new history that continues the old one up to here.
                let offset = self.offset();
                st.replid2 = std::mem::replace(&mut st.replid, new_replid());
                st.second_offset = offset as i64;
                st.master = None;
                st.link = Link::Connect;
                drop(st);
                // After a restart this node must not resume the old history: its own writes
                // follow from here.
                shared.db.log_repl_pos(&(UNKNOWN_ID, 0)).map_err(|e| format!("ERR {e}"))?;
                self.generation.send_modify(|g| *g += 1);
                self.is_replica.store(false, Release);
                crate::log::event("info", "replication_promoted", &[("offset", &offset.to_string())]);
            }
            Some((host, port)) => {
                if st.master.as_ref() == Some(&(host.clone(), port)) && self.is_replica() {
                    return Ok(());
                }
                st.master = Some((host.clone(), port));
                st.link = Link::Connect;
                drop(st);
                self.backlog_on.store(true, Release);
                self.is_replica.store(true, Release);
                self.generation.send_modify(|g| *g += 1);
                // Replicas of this node are dropped (their senders see the role change).
                self.data.notify_waiters();
                replica::spawn(shared.clone(), *self.generation.borrow());
                crate::log::event("info", "replication_replicaof", &[("host", &host), ("port", &port.to_string())]);
            }
        }
        let master = lock(&self.state).master.clone();
        shared.config.write().unwrap_or_else(|e| e.into_inner()).replication.replicaof = master;
        Ok(())
    }

    /// After a full copy: the stream goes on at `offset` of history `replid`.
    pub fn reset_to(&self, replid: &str, offset: u64) {
        self.backlog().reset(offset);
        let mut st = lock(&self.state);
        st.replid = replid.to_string();
        st.replid2 = "0".repeat(40);
        st.second_offset = -1;
    }

    pub fn position(&self) -> ReplPos {
        (id_bytes(&lock(&self.state).replid), self.offset())
    }
}

/// What a connection does after its pipeline so far is answered (`conn.rs`): WAIT waits for
/// acknowledgements; PSYNC hands the connection over to `primary::serve`.
pub enum Pending {
    Wait { target: u64, replicas: usize, timeout: Option<Duration> },
    Psync(primary::PsyncRequest),
}
