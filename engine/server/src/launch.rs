//! Starting a managed instance: users, allowlist, limits and TLS around the RESP server, plus
//! the memcached and admin ports, all over one store. `main` and the wire tests both start
//! the server through `launch`, so the tests run what production runs.

use crate::acl::{Acl, SharedAcl};
use crate::allowlist::Allowlist;
use crate::config::Config;
use crate::limits::{ConnLimits, Gate};
use crate::memcache::Memcache;
use crate::secure_listener::SecureListener;
use crate::managed::{BoundAddrs, Managed};
use crate::server::{Server, ServerError, Shared};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use tokio::net::TcpListener;

/// `host:port`, with an IPv6 literal in brackets (`[::1]:6379`).
pub fn host_port(host: &str, port: u16) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// A bound server with its extra ports, not yet accepting.
pub struct Launched {
    pub shared: Arc<Shared>,
    pub managed: Arc<Managed>,
    pub addrs: BoundAddrs,
    server: Server<SecureListener>,
    memcached: Option<(TcpListener, Arc<Memcache>)>,
    admin: Option<TcpListener>,
}

/// Binds every configured port and opens the store; errors are start-up messages.
pub async fn start(config: Config) -> Result<Launched, String> {
    let (access, ports, conn) = (config.access.clone(), config.listeners.clone(), config.limits.clone());
    ports.validate()?;
    let users_file = access.users_file.clone().unwrap_or_else(|| config.dir.join("users.acl"));
    let has_file_default = users_file.exists() && std::fs::read_to_string(&users_file).map(|t| t.lines().any(|l| l.trim_start().starts_with("user default "))).unwrap_or(false);
    if has_file_default && access.requirepass.is_some() {
        crate::log::event("warn", "requirepass_ignored", &[("reason", "the users file defines the default user"), ("file", &users_file.display().to_string())]);
    }
    let acl = Arc::new(Acl::open(Some(users_file), access.requirepass.as_ref().map(|s| s.0.as_str()))?);
    let allowlist = Arc::new(Allowlist::open(Some(config.dir.join("allowlist.conf")), &access.allowlist)?);
    let limits = Arc::new(ConnLimits::default());
    limits.maxclients.store(conn.maxclients, Relaxed);
    limits.idle_timeout_secs.store(conn.timeout_secs, Relaxed);
    limits.output_limit_bytes.store(conn.output_limit_bytes, Relaxed);
    limits.output_limit_secs.store(conn.output_limit_secs, Relaxed);
    limits.max_bulk_len.store(conn.proto_max_bulk_len.min(crate::resp::frame::MAX_BULK_LEN as u64), Relaxed);

    let tls = match (ports.tls_port, &ports.tls_cert_file, &ports.tls_key_file) {
        (Some(port), Some(cert), Some(key)) => {
            let acceptor = crate::tls::acceptor(cert, key, ports.tls_ca_cert_file.as_deref(), ports.tls_auth_clients)?;
            Some((host_port(&config.bind, port), acceptor))
        }
        _ => None,
    };
    let plain = ports.plaintext.then(|| host_port(&config.bind, config.port));
    let listener = SecureListener::bind(plain.as_deref(), tls.as_ref().map(|(a, acc)| (a.as_str(), acc.clone())), limits.clone())
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", plain.clone().or(tls.as_ref().map(|t| t.0.clone())).unwrap_or_default()))?;
    let mut addrs = BoundAddrs { plain: listener.plain_addr(), tls: listener.tls_addr(), ..BoundAddrs::default() };

    let bind_extra = |port: Option<u16>, host: String| async move {
        match port {
            Some(p) => {
                let addr = host_port(&host, p);
                TcpListener::bind(&addr).await.map(Some).map_err(|e| format!("cannot listen on {addr}: {e}"))
            }
            None => Ok(None),
        }
    };
    let memcached = bind_extra(ports.memcached_port, config.bind.clone()).await?;
    let admin = bind_extra(ports.admin_port, ports.admin_bind.clone()).await?;
    addrs.memcached = memcached.as_ref().and_then(|l| l.local_addr().ok());
    addrs.admin = admin.as_ref().and_then(|l| l.local_addr().ok());

    let gate = Arc::new(Gate { allowlist: allowlist.clone(), limits: limits.clone(), exempt_user: access.allowlist_exempt_user.clone() });
    let server = Server::with_listener(config, listener, gate.clone(), Box::new(SharedAcl(acl.clone())))
        .map_err(|e: ServerError| e.to_string())?;
    let managed = Arc::new(Managed::new(acl.clone(), allowlist, limits.clone()));
    *managed.addrs.lock().unwrap_or_else(|e| e.into_inner()) = addrs.clone();
    let shared = server.shared.clone();
    let _ = shared.managed.set(managed.clone());
    {
        // CONFIG GET shows what is in effect: the allowlist from its file, the bound ports.
        let mut running = shared.config.write().unwrap_or_else(|e| e.into_inner());
        running.access.allowlist = managed.allowlist.render();
        running.listeners.tls_port = addrs.tls.map(|a| a.port());
        running.listeners.memcached_port = addrs.memcached.map(|a| a.port());
        running.listeners.admin_port = addrs.admin.map(|a| a.port());
    }
    let memcached = memcached.map(|listener| {
        (listener, Arc::new(Memcache::new(shared.clone(), Some(acl), gate, limits, Some(managed.metrics.clone()))))
    });
    Ok(Launched { shared, managed, addrs, server, memcached, admin })
}

impl Launched {
    /// Serves every port until SHUTDOWN or `request_shutdown`, then flushes the store.
    pub async fn run(self) -> Result<(), ServerError> {
        let Launched { shared, managed, server, memcached, admin, addrs } = self;
        let fields = [
            ("resp", addrs.plain.map(|a| a.to_string()).unwrap_or_default()),
            ("tls", addrs.tls.map(|a| a.to_string()).unwrap_or_default()),
            ("memcached", addrs.memcached.map(|a| a.to_string()).unwrap_or_default()),
            ("admin", addrs.admin.map(|a| a.to_string()).unwrap_or_default()),
        ];
        let borrowed: Vec<(&str, &str)> = fields.iter().filter(|(_, v)| !v.is_empty()).map(|(k, v)| (*k, v.as_str())).collect();
        crate::log::event("info", "listening", &borrowed);
        if let Some((listener, mc)) = memcached {
            tokio::spawn(crate::memcache::serve(listener, mc));
        }
        if let Some(listener) = admin {
            tokio::spawn(crate::admin_http::serve(listener, shared.clone(), managed.clone()));
        }
        server.run().await
    }
}
