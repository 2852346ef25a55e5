//! The server: state shared by all connections, the accept loop and shutdown.

use crate::auth::{Authenticator, NoPassword};
use crate::client::Clients;
use crate::config::Config;
use crate::conn;
use crate::listener::{AcceptHook, AllowAll, Listener, TcpPlain};
use crate::outside_allowlist::Admission;
use crate::stats::Stats;
use basalt_storage::{Db, Options, StorageError};
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, RwLock};
use tokio::sync::watch;

/// What every connection shares.
pub struct Shared {
    pub db: Db,
    pub config: RwLock<Config>,
    pub stats: Stats,
    pub clients: Clients,
    pub auth: Box<dyn Authenticator>,
    pub run_id: String,
    /// Users, allowlist, live limits, latency histograms and bound ports of a managed instance
    /// (set by `launch`; empty in bare tests).
    pub managed: std::sync::OnceLock<Arc<crate::managed::Managed>>,
    /// The address actually bound (port 0 becomes a real port).
    pub local_addr: SocketAddr,
    /// Lua scripts: the cache and the running script.
    pub scripts: crate::scripting::Scripts,
    /// Pub/sub subscriptions of every connection.
    pub pubsub: crate::pubsub::PubSub,
    /// Held shared by every command and exclusively by EXEC and scripts (`multi.rs`).
    pub exclusive: RwLock<()>,
    /// Replication: role, stream backlog, replicas, the link to the primary (issue 15).
    pub repl: Arc<crate::replication::Replication>,
    /// SLOWLOG: the commands slower than `slowlog-log-slower-than`.
    pub slowlog: crate::slowlog::SlowLog,
    /// Managed mode (`platform_commands.rs`), from the config at start.
    pub managed_mode: bool,
    /// What BACKUP READ seals its bytes with (`--backup-key-file`), if set.
    pub backup_cipher: Option<Arc<basalt_storage::Cipher>>,
    shutdown: watch::Sender<bool>,
}

impl Shared {
    /// Asks the server to stop: the accept loop ends, the store is flushed, `run` returns.
    pub fn request_shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    pub fn shutdown_requested(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Resolves once shutdown was requested.
    pub async fn wait_shutdown(&self) {
        stopped(&mut self.shutdown_requested()).await
    }

    pub fn config(&self) -> Config {
        self.config.read().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Resolves once the flag is set (the guard `wait_for` returns is dropped at once: it is not `Send`).
async fn stopped(rx: &mut watch::Receiver<bool>) {
    let _ = rx.wait_for(|stopping| *stopping).await;
}

#[derive(Debug)]
#[non_exhaustive]
pub enum ServerError {
    Bind { addr: String, source: io::Error },
    Storage(StorageError),
    /// `--encryption-key-file` could not be read or is not a 32-byte key.
    EncryptionKey(String),
    /// `--backup-key-file` could not be read or is not a 32-byte key.
    BackupKey(String),
}

impl std::fmt::Display for ServerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServerError::Bind { addr, source } => write!(f, "cannot listen on {addr}: {source}"),
            ServerError::Storage(e) => write!(f, "cannot open the data directory: {e}"),
            ServerError::EncryptionKey(why) => write!(f, "encryption-key-file: {why}"),
            ServerError::BackupKey(why) => write!(f, "backup-key-file: {why}"),
        }
    }
}

impl std::error::Error for ServerError {}

/// A bound, running server.
pub struct Server<L: Listener = TcpPlain> {
    pub shared: Arc<Shared>,
    listener: L,
    hook: Arc<dyn AcceptHook>,
}

pub(crate) fn make_run_id() -> String {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut id = String::with_capacity(40);
    while id.len() < 40 {
        let mut h = RandomState::new().build_hasher();
        h.write_usize(id.len());
        id.push_str(&format!("{:016x}", h.finish()));
    }
    id.truncate(40);
    id
}

impl Server<TcpPlain> {
    /// Opens the store in `config.dir` and binds `config.bind:config.port` (port 0: any free port).
    pub async fn bind(config: Config) -> Result<Server<TcpPlain>, ServerError> {
        let addr = format!("{}:{}", config.bind, config.port);
        let listener = TcpPlain::bind(&addr).await.map_err(|source| ServerError::Bind { addr: addr.clone(), source })?;
        Server::with_listener(config, listener, Arc::new(AllowAll), Box::new(NoPassword))
    }
}

impl<L: Listener> Server<L> {
    /// A server on any listener, with an accept hook and an authenticator (issue 3 brings TLS,
    /// the allowlist and users through these three).
    pub fn with_listener(
        config: Config,
        listener: L,
        hook: Arc<dyn AcceptHook>,
        auth: Box<dyn Authenticator>,
    ) -> Result<Server<L>, ServerError> {
        let local_addr = listener
            .local_addr()
            .map_err(|source| ServerError::Bind { addr: format!("{}:{}", config.bind, config.port), source })?;
        let options = Options::new(config.dir.clone())
            .fsync(config.fsync)
            .maxmemory(config.maxmemory)
            .shards(64)
            .databases(config.databases)
            .cipher(config.at_rest.cipher()?)
            .blocking_io(crate::multi::blocking_io)
            .archive(config.backup.archive)
            .archive_seal_interval_ms(config.backup.seal_interval_ms)
            .archive_seal_segments(config.backup.seal_segments);
        let backup_cipher = config.backup.cipher()?;
        let db = Db::open(options).map_err(ServerError::Storage)?;
        let (shutdown, _) = watch::channel(false);
        let slowlog = crate::slowlog::SlowLog::new(config.slowlog_log_slower_than_us, config.slowlog_max_len);
        let repl = Arc::new(crate::replication::Replication::new(&config.replication, db.recovered_repl_pos()));
        let managed_mode = config.access.managed;
        let shared = Arc::new(Shared {
            managed_mode,
            backup_cipher,
            repl,
            slowlog,
            db,
            config: RwLock::new(config),
            stats: Stats::new(),
            clients: Clients::default(),
            auth,
            run_id: make_run_id(),
            managed: std::sync::OnceLock::new(),
            local_addr,
            exclusive: RwLock::new(()),
            pubsub: Default::default(),
            scripts: Default::default(),
            shutdown,
        });
        crate::replication::Replication::install(&shared);
        Ok(Server { shared, listener, hook })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.shared.local_addr
    }

    /// Accepts connections until SHUTDOWN (or `request_shutdown`), then flushes the store.
    pub async fn run(self) -> Result<(), ServerError> {
        let Server { shared, listener, hook } = self;
        let listener = Arc::new(listener);
        crate::accept::accept_loop(&shared, "resp", || listener.accept(), |stream, peer| {
            let admission = match hook.admit(&peer) {
                Ok(admission) => admission,
                Err(reason) => {
                    shared.stats.rejected_connections.fetch_add(1, Relaxed);
                    tokio::spawn(conn::refuse(stream, reason));
                    return;
                }
            };
            shared.stats.total_connections.fetch_add(1, Relaxed);
            let _ = stream.set_nodelay(true);
            let local = stream.local_addr().unwrap_or(shared.local_addr);
            let shared = shared.clone();
            let listener = listener.clone();
            tokio::spawn(async move {
                match listener.upgrade(stream).await {
                    Ok(stream) => match admission {
                        Admission::Full => conn::serve(shared, stream, peer, local).await,
                        Admission::OnlyAs(user) => {
                            if let Some(stream) = crate::outside_allowlist::login(&shared, stream, peer, &user).await {
                                conn::serve(shared, stream, peer, local).await
                            }
                        }
                    },
                    Err(e) => eprintln!("basalt-server: connection from {peer} failed to start: {e}"),
                }
            });
        })
        .await;
        let db_result = shared.db.sync();
        db_result.map_err(ServerError::Storage)
    }
}
