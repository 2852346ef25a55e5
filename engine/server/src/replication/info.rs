//! ROLE and the `# Replication` section of INFO, in Redis' field names (plus Basalt's:
//! `lag_bytes` per replica, `replication_mode`, `read_only`, the sync counters).

use super::{lock, Replication};
use crate::resp::Reply;
use std::fmt::Write;
use std::sync::atomic::Ordering::Relaxed;

/// `ROLE`: master: `[master, offset, [[ip, port, offset]...]]`; replica: `[slave, host, port,
/// state, offset]`.
pub fn role(repl: &Replication, reply: &mut Reply) {
    let st = lock(&repl.state);
    match &st.master {
        Some((host, port)) => {
            reply.array(5);
            reply.bulk(b"slave");
            reply.bulk(host.as_bytes());
            reply.int(*port as i64);
            reply.bulk(st.link.name().as_bytes());
            reply.int(repl.offset() as i64);
        }
        None => {
            drop(st);
            let offset = repl.offset();
            let peers = lock(&repl.peers).clone();
            reply.array(3);
            reply.bulk(b"master");
            reply.int(offset as i64);
            reply.array(peers.len());
            for p in peers {
                reply.array(3);
                reply.bulk(p.ip.as_bytes());
                reply.bulk(p.port.to_string().as_bytes());
                reply.bulk(p.ack.load(Relaxed).to_string().as_bytes());
            }
        }
    }
}

fn line(out: &mut String, name: &str, value: impl std::fmt::Display) {
    let _ = write!(out, "{name}:{value}\r\n");
}

/// The lines of `# Replication` (without the header).
pub fn section(repl: &Replication, out: &mut String) {
    let offset = repl.offset();
    let st = lock(&repl.state);
    match &st.master {
        Some((host, port)) => {
            line(out, "role", "slave");
            line(out, "master_host", host);
            line(out, "master_port", port);
            let up = st.link == super::Link::Connected;
            line(out, "master_link_status", if up { "up" } else { "down" });
            let io = st.last_io.map(|t| t.elapsed().as_secs() as i64).unwrap_or(-1);
            line(out, "master_last_io_seconds_ago", io);
            line(out, "master_sync_in_progress", u8::from(st.link == super::Link::Sync));
            line(out, "slave_read_repl_offset", offset);
            line(out, "slave_repl_offset", offset);
            line(out, "slave_priority", 100);
            line(out, "slave_read_only", 1);
            line(out, "replica_announced", 1);
            if !st.last_error.is_empty() && !up {
                line(out, "master_link_last_error", st.last_error.replace(['\r', '\n'], " "));
            }
        }
        None => line(out, "role", "master"),
    }
    drop(st);
    let peers = peers(repl, offset);
    let st = lock(&repl.state);
    line(out, "connected_slaves", peers.len());
    for (i, p) in peers.iter().enumerate() {
        let _ = write!(
            out,
            "slave{i}:ip={},port={},state={},offset={},lag={},lag_bytes={}\r\n",
            p.ip, p.port, p.state, p.offset, p.lag_secs, p.lag_bytes
        );
    }
    line(out, "master_failover_state", "no-failover");
    line(out, "master_replid", &st.replid);
    line(out, "master_replid2", &st.replid2);
    line(out, "master_repl_offset", offset);
    line(out, "second_repl_offset", st.second_offset);
    drop(st);
    let b = repl.backlog();
    line(out, "repl_backlog_active", 1);
    line(out, "repl_backlog_size", b.capacity());
    line(out, "repl_backlog_first_byte_offset", b.start());
    line(out, "repl_backlog_histlen", b.len());
    drop(b);
    line(out, "replication_mode", if repl.sync.load(Relaxed) { "sync" } else { "async" });
    line(out, "replication_sync_timeout_ms", repl.sync_timeout_ms.load(Relaxed));
    line(out, "read_only", u8::from(repl.read_only.load(Relaxed)));
    line(out, "good_slaves", repl.good_replicas());
    let min = repl.min_replicas.load(Relaxed);
    if min > 0 {
        line(out, "min_slaves_good_slaves", repl.acked_within(repl.min_replicas_max_lag_secs.load(Relaxed) * 1000));
    }
    line(out, "sync_full", repl.full_syncs.load(Relaxed));
    line(out, "sync_partial_ok", repl.partial_ok.load(Relaxed));
    line(out, "sync_partial_err", repl.partial_err.load(Relaxed));
}

/// One connected replica as INFO and `/metrics` show it.
pub struct PeerView {
    pub ip: String,
    pub port: u16,
    pub state: &'static str,
    /// The offset its log holds.
    pub offset: u64,
    /// Seconds since its last acknowledgement.
    pub lag_secs: u64,
    /// What it does not hold yet: this node's offset minus its own.
    pub lag_bytes: u64,
}

pub fn peers(repl: &Replication, offset: u64) -> Vec<PeerView> {
    let now = basalt_storage::now_ms();
    lock(&repl.peers)
        .iter()
        .map(|p| {
            let ack = p.ack.load(Relaxed);
            PeerView {
                ip: p.ip.clone(),
                port: p.port,
                state: if p.online.load(Relaxed) { "online" } else { "send_bulk" },
                offset: ack,
                lag_secs: now.saturating_sub(p.ack_ms.load(Relaxed)) / 1000,
                lag_bytes: offset.saturating_sub(ack),
            }
        })
        .collect()
}

/// Whether this node is a replica whose link to its primary is up, and seconds since it last
/// heard from it.
pub fn link(repl: &Replication) -> Option<(bool, u64)> {
    let st = lock(&repl.state);
    st.master.as_ref()?;
    let up = st.link == super::Link::Connected;
    Some((up, st.last_io.map(|t| t.elapsed().as_secs()).unwrap_or(u64::MAX)))
}
