//! basalt-server: a persistent Redis-compatible key-value server over `basalt-storage`.
//!
//! # Layout
//! - `resp/`       — the wire protocol: two-pass framing (`frame`), replies in RESP2/RESP3
//!   (`reply`), number parsing and formatting as Redis does it (`number`).
//! - `table.rs`    — the one static command table: name, arity, flags, key positions, ACL
//!   categories, handler. `registry.rs` flattens it for lookup and per-command statistics.
//! - `dispatch.rs` — table lookup, arity and auth checks, running a handler, counting it.
//! - `cmd/`        — one command per file (`cmd/set.rs`): parse, apply, reply.
//! - `conn.rs`     — one connection: read, run the whole buffered pipeline, wait once for the
//!   log, write all replies.
//! - `server.rs`   — shared state (`Shared`), serving the RESP port, shutdown.
//! - `accept.rs`   — the one accept loop every port runs (RESP/TLS, memcached, admin HTTP).
//! - `listener.rs` — where connections come from (`Listener`, `AcceptHook`): TLS and the IP
//!   allowlist plug in here. `auth.rs` — `Authenticator`: users and ACLs plug in here.
//! - `client.rs`   — the connection context (`Session`) and the registry behind CLIENT LIST.
//! - `config.rs`   — command line and TOML file; `config_values.rs` — how a flag's or file
//!   key's text is read; `settings.rs` — the one table of CONFIG GET/SET parameters.
//! - `info.rs`, `stats.rs` — INFO sections and the counters behind them.
//! - `blocking.rs` — BLPOP and friends: how a command blocks and what it waits for.
//! - `multi.rs`    — MULTI/EXEC/WATCH state of a connection and the lock EXEC runs alone under.
//! - `pubsub.rs`   — channels, patterns and each subscriber's bounded mailbox.
//! - `scripting/`  — Lua 5.1 scripts (EVAL, EVALSHA, SCRIPT): cache, VM, reply conversion.
//! - `encoding.rs` — the encoding names OBJECT ENCODING reports.
//! - `glob.rs`     — Redis glob patterns (KEYS, SCAN MATCH, CONFIG GET).
//! - `fdlimit.rs`  — lifts the open-files limit so thousands of clients can connect.
//! - issue 3, a managed instance: `acl/` (users, ACL), `allowlist.rs`, `limits.rs` +
//!   `guarded.rs` (maxclients, idle timeout, output limit), `tls.rs` + `secure_listener.rs`,
//!   `outside_allowlist.rs` (the one user who may log in from outside the allowlist),
//!   `memcache/` (memcached text protocol), `admin_http.rs` + `prometheus.rs` + `metrics.rs`
//!   (`/metrics`, `/healthz`), `log.rs` (JSON log lines), `at_rest.rs` (encryption at rest);
//!   their settings: `security_table.rs` (the `[security]` table and flags) routes each key to
//!   `access_config.rs`, `listeners_config.rs`, `limits_config.rs` or `at_rest.rs`;
//!   `managed.rs` holds the running parts (users, allowlist, live limits, metrics, bound
//!   ports) and `launch.rs` starts all of it around `Server`.
//! - `platform_commands.rs` — managed mode (issue 43): the one table of the platform's
//!   commands, refused to customer users, each with what to use instead.
//! - `slowlog.rs`  — SLOWLOG: commands slower than `slowlog-log-slower-than`, arguments cut.
//! - issue 44, backups: `backup_config.rs` (the `[backup]` table: archiving, seal interval,
//!   backup key) and `cmd/backup*.rs` (BACKUP SEGMENTS / READ / ARCHIVED / BASE, platform only).
//! - `error.rs`    — `CmdError`, the error enum of the command layer, worded as Redis.

pub mod accept;
pub mod access_config;
pub mod acl;
pub mod admin_http;
pub mod allowlist;
pub mod at_rest;
pub mod auth;
pub mod backup_config;
pub mod blocking;
pub mod client;
pub mod cmd;
pub mod config;
pub mod config_values;
pub mod conn;
pub mod dispatch;
pub mod encoding;
pub mod error;
pub mod fdlimit;
pub mod glob;
pub mod guarded;
pub mod info;
pub mod launch;
pub mod limits;
pub mod limits_config;
pub mod listener;
pub mod listeners_config;
pub mod log;
pub mod managed;
pub mod memcache;
pub mod metrics;
pub mod multi;
pub mod outside_allowlist;
pub mod platform_commands;
pub mod prometheus;
pub mod pubsub;
pub mod registry;
pub mod replication;
pub mod resp;
pub mod scripting;
pub mod secure_listener;
pub mod security_table;
pub mod slowlog;
pub mod server;
pub mod settings;
pub mod stats;
pub mod table;
pub mod tls;
pub mod until;
pub mod yield_once;

pub use config::Config;
pub use server::{Server, ServerError, Shared};
