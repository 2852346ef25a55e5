//! The one table of CONFIG parameters: each entry's Redis name, the other names it answers
//! to, how CONFIG GET reads it from the running config, and whether (and how) CONFIG SET
//! changes it at run time. CONFIG GET (one name, an alias, or a glob over every name, in
//! this order) and CONFIG SET read nothing else. A change is applied to the running parts
//! and then kept in the running config, so CONFIG GET shows it.

use crate::config::{parse_fsync, parse_memory, Config};
use crate::server::Shared;
use std::sync::atomic::Ordering::Relaxed;

/// How CONFIG SET treats a parameter; errors are the text after Redis' prefix
/// (`set` adds `ERR CONFIG SET failed (possibly related to argument '<name>') - `).
pub enum Set {
    /// Not changed at run time, for this reason.
    Fixed(&'static str),
    /// Checks the value (`name` is the parameter's) and applies it.
    Live(fn(&Shared, &str, &str) -> Result<(), String>),
}

pub struct Parameter {
    pub name: &'static str,
    /// Other names accepted when spelled out exactly (the CLI's own, Redis 6's); CONFIG GET
    /// answers under the name asked for.
    pub aliases: &'static [&'static str],
    /// Reads the value from the running config (`name` is the parameter's).
    pub get: fn(&Config, &str) -> String,
    pub set: Set,
}

const IMMUTABLE: &str = "can't set immutable config";
const FIXED: Set = Set::Fixed(IMMUTABLE);
const NOT_INTEGER: &str = "argument couldn't be parsed into an integer";

const fn p(name: &'static str, get: fn(&Config, &str) -> String, set: Set) -> Parameter {
    Parameter { name, aliases: &[], get, set }
}

const fn alias(name: &'static str, aliases: &'static [&'static str], get: fn(&Config, &str) -> String, set: Set) -> Parameter {
    Parameter { name, aliases, get, set }
}

/// Every parameter, in the order `CONFIG GET *` lists them.
pub static PARAMETERS: &[Parameter] = &[
    alias("appendfsync", &["fsync"], |c, _| c.fsync.name().to_string(), Set::Live(set_fsync)),
    // Basalt's log is its only persistence and is always on: `yes` is accepted as already true.
    p("appendonly", |_, _| "yes".to_string(), Set::Live(|_, _, v| if v.eq_ignore_ascii_case("yes") { Ok(()) } else { Err(IMMUTABLE.into()) })),
    p("bind", |c, _| c.bind.clone(), FIXED),
    p("databases", |c, _| c.databases.to_string(), FIXED),
    p("dir", |c, _| std::fs::canonicalize(&c.dir).unwrap_or_else(|_| c.dir.clone()).display().to_string(), FIXED),
    p("maxmemory", |c, _| c.maxmemory.to_string(), Set::Live(set_maxmemory)),
    p("port", |c, _| c.port.to_string(), FIXED),
    // Basalt never writes RDB snapshots: turning them off is the only change that is true.
    p("save", |_, _| String::new(), Set::Live(|_, _, v| if v.trim().is_empty() { Ok(()) } else { Err(IMMUTABLE.into()) })),
    alias("threads", &["io-threads"], |c, _| c.threads.to_string(), FIXED),
    // A managed instance (issue 3): access_config, limits_config, listeners_config, at_rest.
    p("allowlist", |c, _| c.access.allowlist.clone(), Set::Live(set_managed)),
    p("maxclients", |c, _| c.limits.maxclients.to_string(), Set::Live(set_managed)),
    p("timeout", |c, _| c.limits.timeout_secs.to_string(), Set::Live(set_managed)),
    p(
        "client-output-buffer-limit",
        |c, _| format!("normal {} {}", c.limits.output_limit_bytes, c.limits.output_limit_secs),
        Set::Live(set_managed),
    ),
    p("proto-max-bulk-len", |c, _| c.limits.proto_max_bulk_len.to_string(), Set::Live(set_managed)),
    // Never the password itself: Redis shows it, a managed service must not.
    p("requirepass", |_, _| String::new(), Set::Live(set_managed)),
    p("managed", |c, _| yes_no(c.access.managed), FIXED),
    p("aclfile", |c, _| c.access.users_file.clone().unwrap_or_else(|| c.dir.join("users.acl")).display().to_string(), FIXED),
    p("tls-port", |c, _| port(c.listeners.tls_port), FIXED),
    p("tls-cert-file", |c, _| path(&c.listeners.tls_cert_file), FIXED),
    p("tls-key-file", |c, _| path(&c.listeners.tls_key_file), FIXED),
    p("tls-ca-cert-file", |c, _| path(&c.listeners.tls_ca_cert_file), FIXED),
    p("tls-auth-clients", |c, _| c.listeners.tls_auth_clients.name().to_string(), FIXED),
    p("memcached-port", |c, _| port(c.listeners.memcached_port), FIXED),
    p("admin-port", |c, _| port(c.listeners.admin_port), FIXED),
    p("encryption-at-rest", |c, _| yes_no(c.at_rest.enabled()), FIXED),
    // Backups (issue 44): backup_config.rs.
    p("archive", |c, _| yes_no(c.backup.archive), Set::Live(set_archive)),
    p("archive-seal-interval", |c, _| c.backup.seal_interval_ms.to_string(), Set::Live(set_archive_seal_interval)),
    p("archive-seal-mode", |c, _| (if c.backup.seal_segments { "segment" } else { "tail" }).to_string(), FIXED),
    p("backup-encryption", |c, _| yes_no(c.backup.backup_key_file.is_some()), FIXED),
    // Scripts and keyspace notifications (issue 18).
    alias("lua-time-limit", &["busy-reply-threshold"], |c, _| c.lua_time_limit_ms.to_string(), Set::Live(set_lua_time_limit)),
    p("notify-keyspace-events", |c, _| crate::pubsub::notify::format(c.notify_keyspace_events), Set::Live(set_notify)),
    // SLOWLOG (issue 16).
    p("slowlog-log-slower-than", |c, _| c.slowlog_log_slower_than_us.to_string(), Set::Live(set_slowlog_slower_than)),
    p("slowlog-max-len", |c, _| c.slowlog_max_len.to_string(), Set::Live(set_slowlog_max_len)),
    // Replication (issue 15): replication/config.rs reads and applies them.
    alias("replicaof", &["slaveof"], replication, Set::Fixed("use REPLICAOF host port (or NO ONE)")),
    p("replication-mode", replication, Set::Live(crate::replication::config::set)),
    p("replication-sync-timeout-ms", replication, Set::Live(crate::replication::config::set)),
    p("repl-backlog-size", replication, Set::Live(crate::replication::config::set)),
    p("repl-timeout", replication, Set::Live(crate::replication::config::set)),
    p("read-only", replication, Set::Live(crate::replication::config::set)),
    p("masteruser", replication, Set::Live(crate::replication::config::set)),
    p("masterauth", replication, Set::Fixed("masterauth is set in the config file or masterauth-file, not by CONFIG SET")),
    p("masterauth-file", replication, Set::Live(crate::replication::config::set)),
    p("tls-replication", replication, Set::Live(crate::replication::config::set)),
    alias("min-replicas-to-write", &["min-slaves-to-write"], replication, Set::Live(crate::replication::config::set)),
    alias("min-replicas-max-lag", &["min-slaves-max-lag"], replication, Set::Live(crate::replication::config::set)),
    // What OBJECT ENCODING reports (encoding.rs), with Redis 6's names as aliases.
    alias("hash-max-listpack-entries", &["hash-max-ziplist-entries"], threshold, Set::Live(set_threshold)),
    alias("hash-max-listpack-value", &["hash-max-ziplist-value"], threshold, Set::Live(set_threshold)),
    alias("zset-max-listpack-entries", &["zset-max-ziplist-entries"], threshold, Set::Live(set_threshold)),
    alias("zset-max-listpack-value", &["zset-max-ziplist-value"], threshold, Set::Live(set_threshold)),
    p("set-max-intset-entries", threshold, Set::Live(set_threshold)),
    alias(
        "list-max-listpack-size",
        &["list-max-ziplist-size"],
        threshold,
        Set::Live(|shared, name, value| set_list_threshold(shared, name, value, i32::MIN as i64, i32::MAX as i64)),
    ),
    p("list-compress-depth", threshold, Set::Live(|shared, name, value| set_list_threshold(shared, name, value, 0, i32::MAX as i64))),
    p("stream-node-max-entries", threshold, Set::Live(set_threshold)),
    p("stream-node-max-bytes", threshold, Set::Live(set_threshold)),
];

/// The parameter a name (any case) or an alias (spelled out, any case) stands for.
pub fn find(name: &str) -> Option<&'static Parameter> {
    let lower = name.to_ascii_lowercase();
    PARAMETERS
        .iter()
        .find(|p| p.name == lower)
        .or_else(|| PARAMETERS.iter().find(|p| p.aliases.contains(&lower.as_str())))
}

pub fn get(config: &Config, parameter: &Parameter) -> String {
    (parameter.get)(config, parameter.name)
}

/// Checks and applies one `CONFIG SET parameter value`; the error text follows Redis.
pub fn set(shared: &Shared, parameter: &Parameter, value: &str) -> Result<(), String> {
    let failed = |why: &str| format!("ERR CONFIG SET failed (possibly related to argument '{}') - {why}", parameter.name);
    match parameter.set {
        Set::Fixed(why) => Err(failed(why)),
        Set::Live(apply) => apply(shared, parameter.name, value).map_err(|why| failed(&why)),
    }
}

fn port(port: Option<u16>) -> String {
    port.map(|p| p.to_string()).unwrap_or_else(|| "0".to_string())
}

fn path(path: &Option<std::path::PathBuf>) -> String {
    path.as_ref().map(|p| p.display().to_string()).unwrap_or_default()
}

fn yes_no(on: bool) -> String {
    (if on { "yes" } else { "no" }).to_string()
}

fn replication(config: &Config, name: &str) -> String {
    crate::replication::config::get(&config.replication, name).unwrap_or_default()
}

fn threshold(config: &Config, name: &str) -> String {
    config.encodings.get(name).map(|n| n.to_string()).unwrap_or_default()
}

fn running_config(shared: &Shared) -> std::sync::RwLockWriteGuard<'_, Config> {
    shared.config.write().unwrap_or_else(|e| e.into_inner())
}

fn set_fsync(shared: &Shared, _: &str, value: &str) -> Result<(), String> {
    let mode = parse_fsync(value).map_err(|_| "argument(s) must be one of the following: always, everysec, no".to_string())?;
    shared.db.set_fsync_mode(mode);
    running_config(shared).fsync = mode;
    Ok(())
}

fn set_maxmemory(shared: &Shared, _: &str, value: &str) -> Result<(), String> {
    let bytes = parse_memory(value).ok_or("argument must be a memory value")?;
    shared.db.set_maxmemory(bytes);
    running_config(shared).maxmemory = bytes;
    Ok(())
}

/// A managed instance's live settings: applied to its running parts (`Managed::apply_live`),
/// then kept in the running config (the allowlist as it now reads, never the password).
fn set_managed(shared: &Shared, name: &str, value: &str) -> Result<(), String> {
    let value = value.trim();
    let value = if name == "client-output-buffer-limit" { value.strip_prefix("normal ").unwrap_or(value) } else { value };
    let managed = shared.managed.get().ok_or("this server runs without the security settings")?;
    managed.apply_live(name, value)?;
    let stored = if name == "allowlist" { managed.allowlist.render() } else { value.to_string() };
    if name != "requirepass" {
        let _ = running_config(shared).apply_security(name, &stored);
    }
    Ok(())
}

fn set_archive(shared: &Shared, name: &str, value: &str) -> Result<(), String> {
    let on = crate::config_values::yes_no(name, value).map_err(|_| "argument must be 'yes' or 'no'".to_string())?;
    shared.db.set_archive(on);
    running_config(shared).backup.archive = on;
    Ok(())
}

fn set_archive_seal_interval(shared: &Shared, _: &str, value: &str) -> Result<(), String> {
    let ms = crate::backup_config::parse_seal_interval(value)?;
    shared.db.set_archive_seal_interval(ms);
    running_config(shared).backup.seal_interval_ms = ms;
    Ok(())
}

fn set_lua_time_limit(shared: &Shared, _: &str, value: &str) -> Result<(), String> {
    let ms: u64 = value.parse().map_err(|_| NOT_INTEGER)?;
    shared.scripts.busy_after_ms.store(ms, Relaxed);
    running_config(shared).lua_time_limit_ms = ms;
    Ok(())
}

fn set_notify(shared: &Shared, _: &str, value: &str) -> Result<(), String> {
    let flags = crate::pubsub::notify::parse(value).ok_or("Invalid event class character. Use 'Ag$lshzxeKEtmdn'.")?;
    crate::pubsub::notify::configure(&shared.db, &shared.pubsub, flags);
    running_config(shared).notify_keyspace_events = flags;
    Ok(())
}

fn set_slowlog_slower_than(shared: &Shared, _: &str, value: &str) -> Result<(), String> {
    let us: i64 = value.parse().map_err(|_| NOT_INTEGER)?;
    shared.slowlog.set_slower_than(us);
    running_config(shared).slowlog_log_slower_than_us = us;
    Ok(())
}

fn set_slowlog_max_len(shared: &Shared, _: &str, value: &str) -> Result<(), String> {
    let len: u64 = value.parse().map_err(|_| NOT_INTEGER)?;
    shared.slowlog.set_max_len(len);
    running_config(shared).slowlog_max_len = len;
    Ok(())
}

fn set_threshold(shared: &Shared, name: &str, value: &str) -> Result<(), String> {
    let n: usize = value.parse().map_err(|_| NOT_INTEGER)?;
    if let Some(slot) = running_config(shared).encodings.slot(name) {
        *slot = n;
    }
    Ok(())
}

/// The list settings are signed, within Redis' ranges.
fn set_list_threshold(shared: &Shared, name: &str, value: &str, min: i64, max: i64) -> Result<(), String> {
    let n: i64 = value.parse().map_err(|_| NOT_INTEGER)?;
    if n < min || n > max {
        return Err(format!("argument must be between {min} and {max} inclusive"));
    }
    if let Some(slot) = running_config(shared).encodings.list_slot(name) {
        *slot = n;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_are_unique() {
        let mut all: Vec<&str> = PARAMETERS.iter().flat_map(|p| std::iter::once(p.name).chain(p.aliases.iter().copied())).collect();
        let count = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), count);
        assert_eq!(find("FSYNC").map(|p| p.name), Some("appendfsync"));
        assert_eq!(find("hash-max-ziplist-entries").map(|p| p.name), Some("hash-max-listpack-entries"));
        assert_eq!(find("slaveof").map(|p| p.name), Some("replicaof"));
        assert!(find("nope").is_none());
    }

    #[test]
    fn every_parameter_reads_from_the_default_config() {
        let config = Config::default();
        for parameter in PARAMETERS {
            let _ = get(&config, parameter);
        }
        assert_eq!(get(&config, find("tls-auth-clients").unwrap()), "yes");
        assert_eq!(get(&config, find("encryption-at-rest").unwrap()), "no");
        assert_eq!(get(&config, find("list-max-listpack-size").unwrap()), "-2");
    }
}
