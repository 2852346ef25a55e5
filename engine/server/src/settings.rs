//! The parameters of CONFIG GET and CONFIG SET: their Redis names, how to read them, which
//! can change at run time and how a change is applied to the running store.

use crate::config::{parse_fsync, parse_memory, Config};
use crate::server::Shared;

/// Every parameter CONFIG GET lists, in its Redis spelling. `save` and `appendonly` are
/// read-only facts that tools such as redis-benchmark ask for.
pub const PARAMETERS: &[&str] = &[
    "appendfsync", "appendonly", "bind", "databases", "dir", "maxmemory", "port", "save", "threads",
    // issue 3 (security.rs):
    "allowlist", "maxclients", "timeout", "client-output-buffer-limit", "proto-max-bulk-len", "requirepass", "aclfile",
    "tls-port", "tls-cert-file", "tls-key-file", "tls-ca-cert-file", "tls-auth-clients", "memcached-port", "admin-port",
    "encryption-at-rest",
    // issue 18:
    "lua-time-limit", "notify-keyspace-events",
    // issue 16:
    "slowlog-log-slower-than", "slowlog-max-len",
    // issue 15 (replication/config.rs):
    "replicaof", "replication-mode", "replication-sync-timeout-ms", "repl-backlog-size", "repl-timeout", "read-only",
    "masteruser", "masterauth", "masterauth-file", "tls-replication", "min-replicas-to-write", "min-replicas-max-lag",
];

/// Other names accepted when spelled out exactly (the CLI's own names).
const ALIASES: &[(&str, &str)] =
    &[("fsync", "appendfsync"), ("io-threads", "threads"), ("busy-reply-threshold", "lua-time-limit")];

pub fn canonical(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    PARAMETERS
        .iter()
        .chain(crate::encoding::PARAMETERS)
        .copied()
        .find(|p| *p == lower)
        .or_else(|| ALIASES.iter().chain(crate::encoding::ALIASES).find(|(alias, _)| *alias == lower).map(|(_, p)| *p))
}

pub fn get(config: &Config, parameter: &str) -> String {
    match parameter {
        other if crate::replication::config::get(&config.replication, other).is_some() => {
            crate::replication::config::get(&config.replication, other).unwrap_or_default()
        }
        "appendfsync" => config.fsync.name().to_string(),
        "appendonly" => "yes".to_string(),
        "bind" => config.bind.clone(),
        "databases" => config.databases.to_string(),
        "dir" => std::fs::canonicalize(&config.dir).unwrap_or_else(|_| config.dir.clone()).display().to_string(),
        "maxmemory" => config.maxmemory.to_string(),
        "port" => config.port.to_string(),
        "save" => String::new(),
        "threads" => config.threads.to_string(),
        other if crate::security::PARAMETERS.contains(&other) => crate::security::config_value(config, other),
        "lua-time-limit" => config.lua_time_limit_ms.to_string(),
        "notify-keyspace-events" => crate::pubsub::notify::format(config.notify_keyspace_events),
        "slowlog-log-slower-than" => config.slowlog_log_slower_than_us.to_string(),
        "slowlog-max-len" => config.slowlog_max_len.to_string(),
        other => config.encodings.get(other).map(|n| n.to_string()).unwrap_or_default(),
    }
}

/// Checks and applies one `CONFIG SET parameter value`; the error text follows Redis.
pub fn set(shared: &Shared, parameter: &str, value: &str) -> Result<(), String> {
    let failed = |why: &str| format!("ERR CONFIG SET failed (possibly related to argument '{parameter}') - {why}");
    if let Some(done) = crate::replication::config::set(shared, parameter, value) {
        return done.map_err(|why| failed(&why));
    }
    match parameter {
        "appendfsync" => {
            let mode = parse_fsync(value).map_err(|_| failed("argument(s) must be one of the following: always, everysec, no"))?;
            shared.db.set_fsync_mode(mode);
            shared.config.write().unwrap_or_else(|e| e.into_inner()).fsync = mode;
            Ok(())
        }
        "maxmemory" => {
            let bytes = parse_memory(value).ok_or_else(|| failed("argument must be a memory value"))?;
            shared.db.set_maxmemory(bytes);
            shared.config.write().unwrap_or_else(|e| e.into_inner()).maxmemory = bytes;
            Ok(())
        }
        other if crate::security::PARAMETERS.contains(&other) => crate::security::config_set(shared, other, value).map_err(|why| failed(&why)),
        "lua-time-limit" => {
            let ms: u64 = value.parse().map_err(|_| failed("argument couldn't be parsed into an integer"))?;
            shared.scripts.busy_after_ms.store(ms, std::sync::atomic::Ordering::Relaxed);
            shared.config.write().unwrap_or_else(|e| e.into_inner()).lua_time_limit_ms = ms;
            Ok(())
        }
        "notify-keyspace-events" => {
            let flags = crate::pubsub::notify::parse(value).ok_or_else(|| failed("Invalid event class character. Use 'Ag$lshzxeKEtmdn'."))?;
            crate::pubsub::notify::configure(&shared.db, &shared.pubsub, flags);
            shared.config.write().unwrap_or_else(|e| e.into_inner()).notify_keyspace_events = flags;
            Ok(())
        }
        "slowlog-log-slower-than" => {
            let us: i64 = value.parse().map_err(|_| failed("argument couldn't be parsed into an integer"))?;
            shared.slowlog.set_slower_than(us);
            shared.config.write().unwrap_or_else(|e| e.into_inner()).slowlog_log_slower_than_us = us;
            Ok(())
        }
        "slowlog-max-len" => {
            let len: u64 = value.parse().map_err(|_| failed("argument couldn't be parsed into an integer"))?;
            shared.slowlog.set_max_len(len);
            shared.config.write().unwrap_or_else(|e| e.into_inner()).slowlog_max_len = len;
            Ok(())
        }
        // Basalt never writes RDB snapshots: turning them off is the only change that is true.
        "save" if value.trim().is_empty() => Ok(()),
        // The log is Basalt's only persistence and is always on.
        "appendonly" if value.eq_ignore_ascii_case("yes") => Ok(()),
        other if crate::encoding::LIST_PARAMETERS.iter().any(|(name, _, _)| *name == other) => {
            let &(_, min, max) = crate::encoding::LIST_PARAMETERS.iter().find(|(name, _, _)| *name == other).expect("listed");
            let n: i64 = value.parse().map_err(|_| failed("argument couldn't be parsed into an integer"))?;
            if n < min || n > max {
                return Err(failed(&format!("argument must be between {min} and {max} inclusive")));
            }
            let mut config = shared.config.write().unwrap_or_else(|e| e.into_inner());
            if let Some(slot) = config.encodings.list_slot(other) {
                *slot = n;
            }
            Ok(())
        }
        other if crate::encoding::PARAMETERS.contains(&other) => {
            let n: usize = value.parse().map_err(|_| failed("argument couldn't be parsed into an integer"))?;
            let mut config = shared.config.write().unwrap_or_else(|e| e.into_inner());
            if let Some(slot) = config.encodings.slot(other) {
                *slot = n;
            }
            Ok(())
        }
        _ => Err(failed("can't set immutable config")),
    }
}
