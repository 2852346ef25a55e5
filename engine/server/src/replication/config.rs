//! Replication settings: the `[replication]` table of the config file, `--name value` flags,
//! and CONFIG GET/SET (`settings.rs` lists the parameters and calls `get` and `set`).
//!
//! ```toml
//! [replication]
//! replicaof = "10.77.0.5 6379"          # start as a replica of that primary
//! replication-mode = "sync"             # sync | async (default)
//! replication-sync-timeout-ms = 2000    # sync: a write no replica acknowledged within this fails
//! repl-backlog-size = "16mb"            # stream kept for replicas that reconnect
//! repl-timeout = 10                     # seconds without traffic before a link is dropped
//! read-only = "no"                      # yes: refuse writes even as a primary (a fence)
//! min-replicas-to-write = 1             # async too: refuse writes while fewer replicas...
//! min-replicas-max-lag = 10             # ...acknowledged within this many seconds (Redis')
//! masteruser = "replicator"             # the user a replica logs in as on its primary
//! masterauth-file = "/etc/basalt/masterauth"  # its password (first line); or masterauth = "..."
//! tls-replication = "yes"               # connect to the primary's (TLS) port with TLS
//! ```
//! The password is never accepted as a flag: a command line is visible to every user of the
//! host.

use crate::config_values::{apply_toml_table, memory, number, yes_no, Secret};
use std::path::PathBuf;

#[derive(Debug, Clone)]
pub struct ReplicationConfig {
    pub replicaof: Option<(String, u16)>,
    pub sync: bool,
    pub sync_timeout_ms: u64,
    pub backlog_bytes: u64,
    pub timeout_secs: u64,
    pub read_only: bool,
    pub min_replicas: u64,
    pub min_replicas_max_lag_secs: u64,
    pub masteruser: Option<String>,
    pub masterauth: Option<Secret>,
    pub masterauth_file: Option<PathBuf>,
    pub tls: bool,
}

impl Default for ReplicationConfig {
    fn default() -> ReplicationConfig {
        ReplicationConfig {
            replicaof: None,
            sync: false,
            sync_timeout_ms: 2000,
            backlog_bytes: 16 << 20,
            timeout_secs: 10,
            read_only: false,
            min_replicas: 0,
            min_replicas_max_lag_secs: 10,
            masteruser: None,
            masterauth: None,
            masterauth_file: None,
            tls: false,
        }
    }
}

pub const USAGE: &str = "[--replicaof 'HOST PORT'] [--replication-mode sync|async] [--replication-sync-timeout-ms MS] \
[--repl-backlog-size BYTES] [--repl-timeout SECS] [--read-only yes|no] [--min-replicas-to-write N] [--min-replicas-max-lag SECS] [--masteruser NAME] [--masterauth-file PATH] \
[--tls-replication yes|no]";

/// `host port` (REPLICAOF's arguments); `no one` is None.
pub fn parse_replicaof(value: &str) -> Result<Option<(String, u16)>, String> {
    let words: Vec<&str> = value.split_whitespace().collect();
    match words.as_slice() {
        [] => Ok(None),
        [no, one] if no.eq_ignore_ascii_case("no") && one.eq_ignore_ascii_case("one") => Ok(None),
        [host, port] => {
            let port: u16 = port.parse().map_err(|_| format!("replicaof: port must be 1-65535, not {port:?}"))?;
            if port == 0 {
                return Err("replicaof: port must be 1-65535".into());
            }
            Ok(Some((host.to_string(), port)))
        }
        _ => Err(format!("replicaof must be \"host port\" or \"no one\", not {value:?}")),
    }
}

pub fn parse_mode(value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "sync" => Ok(true),
        "async" => Ok(false),
        _ => Err(format!("replication-mode must be sync or async, not {value:?}")),
    }
}

impl ReplicationConfig {
    /// Applies one setting; `Ok(false)` when the name is not a replication setting.
    /// `from_file` allows the password itself (never a flag).
    pub fn apply(&mut self, name: &str, value: &str, from_file: bool) -> Result<bool, String> {
        let name = name.replace('_', "-");
        match name.as_str() {
            "replicaof" | "slaveof" => self.replicaof = parse_replicaof(value)?,
            "replication-mode" => self.sync = parse_mode(value)?,
            "replication-sync-timeout-ms" => self.sync_timeout_ms = number::<u64>(&name, value)?.max(1),
            "repl-backlog-size" => self.backlog_bytes = memory(&name, value)?.max(16 << 10),
            "repl-timeout" => self.timeout_secs = number::<u64>(&name, value)?.max(1),
            "read-only" => self.read_only = yes_no(&name, value)?,
            "min-replicas-to-write" | "min-slaves-to-write" => self.min_replicas = number::<u64>(&name, value)?,
            "min-replicas-max-lag" | "min-slaves-max-lag" => self.min_replicas_max_lag_secs = number::<u64>(&name, value)?,
            "masteruser" => self.masteruser = Some(value.to_string()).filter(|v| !v.is_empty()),
            "masterauth" if from_file => self.masterauth = Some(Secret(value.to_string())).filter(|s| !s.0.is_empty()),
            "masterauth" => return Err("masterauth is not accepted on the command line: use masterauth-file or the config file".into()),
            "masterauth-file" => self.masterauth_file = Some(PathBuf::from(value)),
            "tls-replication" => self.tls = yes_no(&name, value)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    pub fn apply_table(&mut self, table: &toml::Table) -> Result<(), String> {
        apply_toml_table("replication", table, |key, text| self.apply(key, text, true))
    }

    /// The password the replica logs in with: `masterauth`, else the first line of
    /// `masterauth-file` (read when needed, so a rotated file is picked up).
    pub fn password(&self) -> Result<Option<String>, String> {
        if let Some(s) = &self.masterauth {
            return Ok(Some(s.0.clone()));
        }
        let Some(path) = &self.masterauth_file else { return Ok(None) };
        let text = std::fs::read_to_string(path).map_err(|e| format!("masterauth-file {}: {e}", path.display()))?;
        Ok(text.lines().next().map(|l| l.trim_end().to_string()).filter(|l| !l.is_empty()))
    }
}

/// CONFIG GET of a replication parameter (the password is never shown).
pub fn get(c: &ReplicationConfig, name: &str) -> Option<String> {
    Some(match name {
        "replicaof" => c.replicaof.as_ref().map(|(h, p)| format!("{h} {p}")).unwrap_or_default(),
        "replication-mode" => (if c.sync { "sync" } else { "async" }).to_string(),
        "replication-sync-timeout-ms" => c.sync_timeout_ms.to_string(),
        "repl-backlog-size" => c.backlog_bytes.to_string(),
        "repl-timeout" => c.timeout_secs.to_string(),
        "read-only" => (if c.read_only { "yes" } else { "no" }).to_string(),
        "min-replicas-to-write" => c.min_replicas.to_string(),
        "min-replicas-max-lag" => c.min_replicas_max_lag_secs.to_string(),
        "masteruser" => c.masteruser.clone().unwrap_or_default(),
        "masterauth" => String::new(),
        "masterauth-file" => c.masterauth_file.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
        "tls-replication" => (if c.tls { "yes" } else { "no" }).to_string(),
        _ => return None,
    })
}

/// CONFIG SET of a live replication parameter (`settings.rs` lists which): checked as the
/// flag would be, then pushed to the running replication state and kept in the config.
pub fn set(shared: &crate::server::Shared, name: &str, value: &str) -> Result<(), String> {
    use std::sync::atomic::Ordering::Relaxed;
    let mut config = shared.config.write().unwrap_or_else(|e| e.into_inner());
    let mut next = config.replication.clone();
    next.apply(name, value, false)?;
    let repl = &shared.repl;
    repl.sync.store(next.sync, Relaxed);
    repl.sync_timeout_ms.store(next.sync_timeout_ms, Relaxed);
    repl.timeout_secs.store(next.timeout_secs, Relaxed);
    repl.read_only.store(next.read_only, Relaxed);
    repl.min_replicas.store(next.min_replicas, Relaxed);
    repl.min_replicas_max_lag_secs.store(next.min_replicas_max_lag_secs, Relaxed);
    repl.backlog().set_capacity(next.backlog_bytes as usize);
    config.replication = next;
    Ok(())
}
