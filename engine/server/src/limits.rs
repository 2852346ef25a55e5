//! Connection limits and the gate every listener (RESP, TLS, memcached) asks at accept:
//! `maxclients`, the IP allowlist, the idle timeout, and the output-stall limit that cuts a
//! client which stops reading its replies. All are changed live with `CONFIG SET`.

use crate::allowlist::Allowlist;
use crate::listener::AcceptHook;
use crate::outside_allowlist::Admission;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

/// Live limits and the count of open connections they are checked against.
pub struct ConnLimits {
    /// Redis' `maxclients`: connections beyond this get `-ERR max number of clients reached`.
    pub maxclients: AtomicUsize,
    /// Redis' `timeout`: seconds without a request before the server closes the connection;
    /// 0 never closes.
    pub idle_timeout_secs: AtomicU64,
    /// A client with more than this many bytes of replies unsent ...
    pub output_limit_bytes: AtomicU64,
    /// ... for this many seconds without taking any of them is cut off.
    pub output_limit_secs: AtomicU64,
    /// Redis' `proto-max-bulk-len`: the largest bulk string a request may carry; a bigger one
    /// is a protocol error that closes the connection before its bytes are buffered.
    pub max_bulk_len: AtomicU64,
    /// Connections open now on every port (counted by `Guarded` streams).
    pub open: AtomicUsize,
    /// Connections refused by the allowlist and by maxclients, and cut by the limits.
    pub refused_allowlist: AtomicU64,
    pub refused_maxclients: AtomicU64,
    pub idle_closed: AtomicU64,
    pub output_cut: AtomicU64,
}

impl Default for ConnLimits {
    fn default() -> ConnLimits {
        ConnLimits {
            maxclients: AtomicUsize::new(10_000),
            idle_timeout_secs: AtomicU64::new(0),
            output_limit_bytes: AtomicU64::new(64 << 20),
            output_limit_secs: AtomicU64::new(60),
            max_bulk_len: AtomicU64::new(512 << 20),
            open: AtomicUsize::new(0),
            refused_allowlist: AtomicU64::new(0),
            refused_maxclients: AtomicU64::new(0),
            idle_closed: AtomicU64::new(0),
            output_cut: AtomicU64::new(0),
        }
    }
}

/// The accept hook: allowlist first (a stranger learns nothing else), then maxclients.
pub struct Gate {
    pub allowlist: Arc<Allowlist>,
    pub limits: Arc<ConnLimits>,
    /// `allowlist-exempt-user`: the one user a RESP client outside the allowlist may still
    /// log in as (the control plane's); `None`: such a client is refused at accept.
    pub exempt_user: Option<String>,
}

impl Gate {
    fn check_maxclients(&self, peer: &SocketAddr) -> Result<(), String> {
        if self.limits.open.load(Relaxed) >= self.limits.maxclients.load(Relaxed) {
            self.limits.refused_maxclients.fetch_add(1, Relaxed);
            crate::log::event("warn", "connection_refused", &[("peer", &peer.to_string()), ("reason", "maxclients")]);
            return Err("max number of clients reached".to_string());
        }
        Ok(())
    }
}

impl AcceptHook for Gate {
    fn admit(&self, peer: &SocketAddr) -> Result<Admission, String> {
        match &self.exempt_user {
            Some(user) if !self.allowlist.check(peer.ip()) => {
                self.check_maxclients(peer)?;
                Ok(Admission::OnlyAs(user.clone()))
            }
            _ => self.check(peer).map(|()| Admission::Full),
        }
    }

    fn check(&self, peer: &SocketAddr) -> Result<(), String> {
        if !self.allowlist.check(peer.ip()) {
            self.limits.refused_allowlist.fetch_add(1, Relaxed);
            crate::log::event(
                "warn",
                "connection_refused",
                &[("peer", &peer.to_string()), ("reason", "allowlist")],
            );
            return Err(crate::outside_allowlist::refusal(peer));
        }
        self.check_maxclients(peer)
    }
}
