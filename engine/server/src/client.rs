//! Clients: the per-connection context a command sees (`Session`) and the registry of open
//! connections behind `CLIENT LIST` and `INFO clients`.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What other connections may read about a client (CLIENT LIST).
pub struct ClientHandle {
    pub id: u64,
    pub addr: SocketAddr,
    pub local_addr: SocketAddr,
    pub created: Instant,
    /// Milliseconds since `created` of the last command (for `idle=`).
    pub last_active_ms: AtomicU64,
    /// Registry index of the last command (for `cmd=`); `usize::MAX` before the first.
    pub last_command: AtomicUsize,
    pub meta: Mutex<ClientMeta>,
    /// CLIENT KILL of this connection: it closes after its current command.
    killed: tokio::sync::Notify,
    /// The connection waits in a blocking command (flag `b`, CLIENT UNBLOCK may end it).
    blocked: AtomicBool,
    /// CLIENT UNBLOCK's request while blocked: 0 none, else an [`Unblock`] as u8.
    unblock: AtomicU8,
    unblocked: tokio::sync::Notify,
}

/// How CLIENT UNBLOCK ends a blocking command.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Unblock {
    /// As if its timeout had passed (the command's timeout reply).
    Timeout = 1,
    /// With the error `-UNBLOCKED client unblocked via CLIENT UNBLOCK`.
    Error = 2,
}

#[derive(Clone, Debug)]
pub struct ClientMeta {
    pub name: Option<String>,
    /// The authenticated user (`default` until issue 3 brings users).
    pub user: String,
    pub resp: u8,
    pub query_buffer: usize,
    /// The selected database (for `db=`).
    pub db: usize,
    /// Channels and patterns subscribed (for `sub=` and `psub=`).
    pub sub: usize,
    pub psub: usize,
    /// CLIENT NO-EVICT ON (flag `e`).
    pub no_evict: bool,
}

impl ClientHandle {
    pub fn meta(&self) -> ClientMeta {
        self.meta.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn update_meta(&self, f: impl FnOnce(&mut ClientMeta)) {
        f(&mut self.meta.lock().unwrap_or_else(|e| e.into_inner()));
    }

    /// Asks the connection to close (CLIENT KILL).
    pub fn kill(&self) {
        self.killed.notify_one();
    }

    /// Resolves once CLIENT KILL asked this connection to close.
    pub async fn killed(&self) {
        self.killed.notified().await
    }

    /// Marks the connection as waiting in a blocking command (or no longer), forgetting any
    /// earlier CLIENT UNBLOCK request.
    pub fn set_blocked(&self, on: bool) {
        self.unblock.store(0, Relaxed);
        self.blocked.store(on, Relaxed);
    }

    /// CLIENT UNBLOCK: asks a blocked connection to end its command; false if it is not blocked.
    pub fn request_unblock(&self, how: Unblock) -> bool {
        if !self.blocked.load(Relaxed) || self.unblock.compare_exchange(0, how as u8, Relaxed, Relaxed).is_err() {
            return false;
        }
        self.unblocked.notify_one();
        true
    }

    /// Resolves when CLIENT UNBLOCK may have asked this connection to end its blocking command
    /// (`take_unblock` says whether it did: a wake-up may be left from an earlier wait).
    pub async fn unblocked(&self) {
        self.unblocked.notified().await
    }

    /// The pending CLIENT UNBLOCK request, taken.
    pub fn take_unblock(&self) -> Option<Unblock> {
        match self.unblock.swap(0, Relaxed) {
            1 => Some(Unblock::Timeout),
            2 => Some(Unblock::Error),
            _ => None,
        }
    }

    /// One `CLIENT LIST` line (without the trailing newline), fields as Redis 7 prints them.
    pub fn describe(&self) -> String {
        let meta = self.meta();
        let age = self.created.elapsed().as_secs();
        let idle_ms = (self.created.elapsed().as_millis() as u64).saturating_sub(self.last_active_ms.load(Relaxed));
        let cmd = match self.last_command.load(Relaxed) {
            usize::MAX => "NULL".to_string(),
            i => crate::registry::registry().entries.get(i).map(|e| e.fullname.clone()).unwrap_or_default(),
        };
        format!(
            "id={} addr={} laddr={} fd=0 name={} age={} idle={} flags={} db={} sub={} psub={} ssub=0 multi=-1 \
             qbuf={} qbuf-free=0 argv-mem=0 multi-mem=0 rbs=0 rbp=0 obl=0 oll=0 omem=0 tot-mem=0 events=r \
             cmd={} user={} redir=-1 resp={}",
            self.id,
            self.addr,
            self.local_addr,
            meta.name.as_deref().unwrap_or(""),
            age,
            idle_ms / 1000,
            match (self.blocked.load(Relaxed), meta.no_evict) {
                (true, true) => "be",
                (true, false) => "b",
                (false, true) => "e",
                (false, false) => "N",
            },
            meta.db,
            meta.sub,
            meta.psub,
            meta.query_buffer,
            cmd,
            meta.user,
            meta.resp
        )
    }
}

/// The open connections.
#[derive(Default)]
pub struct Clients {
    next_id: AtomicU64,
    open: Mutex<BTreeMap<u64, Arc<ClientHandle>>>,
}

impl Clients {
    pub fn register(&self, addr: SocketAddr, local_addr: SocketAddr) -> Arc<ClientHandle> {
        let id = self.next_id.fetch_add(1, Relaxed) + 1;
        let handle = Arc::new(ClientHandle {
            id,
            addr,
            local_addr,
            created: Instant::now(),
            last_active_ms: AtomicU64::new(0),
            last_command: AtomicUsize::new(usize::MAX),
            killed: tokio::sync::Notify::new(),
            blocked: AtomicBool::new(false),
            unblock: AtomicU8::new(0),
            unblocked: tokio::sync::Notify::new(),
            meta: Mutex::new(ClientMeta { name: None, user: "default".to_string(), resp: 2, query_buffer: 0, db: 0, sub: 0, psub: 0, no_evict: false }),
        });
        self.lock().insert(id, handle.clone());
        handle
    }

    pub fn unregister(&self, id: u64) {
        self.lock().remove(&id);
    }

    pub fn count(&self) -> usize {
        self.lock().len()
    }

    pub fn all(&self) -> Vec<Arc<ClientHandle>> {
        self.lock().values().cloned().collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Arc<ClientHandle>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The state of one connection that commands read and change.
pub struct Session {
    pub handle: Arc<ClientHandle>,
    /// Set once AUTH or HELLO ... AUTH succeeded; `None` while no user is authenticated.
    pub user: Option<String>,
    /// Close the connection once the replies written so far are sent (QUIT, protocol errors).
    pub close_after_reply: bool,
    /// The selected database (SELECT).
    pub db: usize,
    /// Between MULTI and EXEC/DISCARD: the queued commands.
    pub multi: Option<crate::multi::MultiState>,
    /// The WATCHed keys, until EXEC, DISCARD, UNWATCH or RESET.
    pub watching: Option<crate::multi::Watching>,
    /// Set when the command just run blocked: the connection waits for this, then runs it again.
    pub blocked: Option<crate::blocking::BlockRequest>,
    /// The arguments to run again while blocked, when they differ from those sent (XREAD's `$`
    /// resolved to the id it stood for at the first run).
    pub blocked_rerun: Option<crate::resp::OwnedArgs>,
    /// True while a blocked command runs again after a change of its keys (XREADGROUP then
    /// answers that its stream or group went away, as Redis unblocks it).
    pub woken: bool,
    /// This run of a blocked command is the last one, after its timeout: it must not block.
    pub unblocking: bool,
    /// CLIENT REPLY OFF: replies are dropped.
    pub replies_off: bool,
    /// CLIENT REPLY SKIP: how many more replies to drop (this command's and the next).
    pub replies_skipped: u8,
    /// Pub/sub channels and patterns, and the mailbox messages arrive in.
    pub subs: Option<crate::pubsub::Subscriptions>,
    /// WAIT or PSYNC: what the connection does once the replies before it are sent.
    pub repl_pending: Option<crate::replication::Pending>,
}

impl Session {
    pub fn new(handle: Arc<ClientHandle>, authenticated_as: Option<String>) -> Session {
        Session { handle, user: authenticated_as, close_after_reply: false, db: 0, multi: None, watching: None, blocked: None, blocked_rerun: None, woken: false, unblocking: false, replies_off: false, replies_skipped: 0, subs: None, repl_pending: None }
    }

    pub fn id(&self) -> u64 {
        self.handle.id
    }

    /// Whether the reply of the command just run is dropped (CLIENT REPLY OFF or SKIP).
    pub fn drop_reply(&mut self) -> bool {
        if self.replies_skipped > 0 {
            self.replies_skipped -= 1;
            return true;
        }
        self.replies_off
    }

    /// Whether the connection listens to any channel or pattern.
    pub fn subscribed(&self) -> bool {
        self.subs.as_ref().is_some_and(|s| s.count() > 0)
    }

    /// UNWATCH: forgets every watched key.
    pub fn unwatch(&mut self, db: &basalt_storage::Db) {
        if let Some(watching) = self.watching.take() {
            watching.release(db);
        }
    }
}
