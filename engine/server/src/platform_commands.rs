//! Managed mode (issue 43): the commands that belong to the platform, refused to every
//! customer user, each with what to use instead. This is the one list; `SECURITY.md` and the
//! README publish it, as ElastiCache and MemoryDB publish theirs.
//!
//! Managed mode is the `managed` setting (`[security]` table or `--managed yes`, read by
//! `access_config`), fixed at start; off by default, so Redis' own test suite runs against an
//! unmanaged server as it runs against Redis. `dispatch` asks `refusal` after the NOAUTH check
//! and before the ACL check, for every command, `redis.call` from scripts included.
//!
//! The platform's users are exempt: the names under `acl::RESERVED_PREFIX` (`basalt:`), which
//! only the users file the worker renders can create (ACL SETUSER refuses them, the API's
//! username rule has no `:`). Each one's own rules in that file bound what it runs: the control
//! plane's `basalt:control-plane` (CONFIG SET, REPLICAOF, ACL LOAD for live changes and
//! failover) and a replica's `basalt:replication` (PSYNC and REPLCONF on its primary only).
//!
//! BACKUP (issue 44) is refused to every user outside `basalt:` on every server, managed or not.
//!
//! Not in the table because the engine has no such command (each answers "unknown command"):
//! SYNC, FAILOVER, MODULE, MONITOR, MIGRATE, SAVE, BGSAVE, BGREWRITEAOF, LASTSAVE, ACL LOG.

use crate::acl::RESERVED_PREFIX;
use crate::registry::registry;
use crate::resp::Args;
use std::sync::OnceLock;

/// One platform command: its full name as the registry spells it (`config|set`; a container's
/// name covers all its subcommands) and what a customer uses instead.
pub struct PlatformCommand {
    pub name: &'static str,
    pub instead: &'static str,
    /// Refused to customer users on every server, managed or not: BACKUP hands out the raw
    /// log, which no customer user may read whatever its ACL says.
    pub everywhere: bool,
}

const INSTANCE: &str = "/v1/projects/{project}/instances/{instance}";

/// Every command refused to customer users under managed mode, in the order published.
pub static PLATFORM_COMMANDS: &[PlatformCommand] = &[
    PlatformCommand { name: "replicaof", instead: "replication is the platform's: create a standard instance (POST /v1/projects/{project}/instances) for replicas, fail over with POST /v1/projects/{project}/instances/{instance}/failover", everywhere: false },
    PlatformCommand { name: "slaveof", instead: "replication is the platform's: create a standard instance (POST /v1/projects/{project}/instances) for replicas, fail over with POST /v1/projects/{project}/instances/{instance}/failover", everywhere: false },
    PlatformCommand { name: "psync", instead: "only the instance's own replicas stream from it; create a standard instance for replicas", everywhere: false },
    PlatformCommand { name: "replconf", instead: "only the instance's own replicas stream from it; create a standard instance for replicas", everywhere: false },
    PlatformCommand { name: "debug", instead: "DEBUG is the platform's; slow commands show in SLOWLOG GET and GET /v1/projects/{project}/instances/{instance}/slowlog", everywhere: false },
    PlatformCommand { name: "shutdown", instead: "restart the instance with POST /v1/projects/{project}/instances/{instance}/restart", everywhere: false },
    PlatformCommand { name: "config|set", instead: "settings change through the API: PATCH /v1/projects/{project}/instances/{instance} with parameters (fsync, maxclients, timeout, replication_mode)", everywhere: false },
    PlatformCommand { name: "config|resetstat", instead: "the platform's monitoring reads these counters; see GET /v1/projects/{project}/instances/{instance}/metrics", everywhere: false },
    PlatformCommand { name: "acl|setuser", instead: "users change through the API: POST /v1/projects/{project}/instances/{instance}/users, PATCH .../users/{username}", everywhere: false },
    PlatformCommand { name: "acl|deluser", instead: "users change through the API: DELETE /v1/projects/{project}/instances/{instance}/users/{username}", everywhere: false },
    PlatformCommand { name: "acl|getuser", instead: "users and their permissions are listed by GET /v1/projects/{project}/instances/{instance}/users; ACL WHOAMI names your own", everywhere: false },
    PlatformCommand { name: "acl|list", instead: "users and their permissions are listed by GET /v1/projects/{project}/instances/{instance}/users; ACL WHOAMI names your own", everywhere: false },
    PlatformCommand { name: "acl|users", instead: "users and their permissions are listed by GET /v1/projects/{project}/instances/{instance}/users; ACL WHOAMI names your own", everywhere: false },
    PlatformCommand { name: "acl|load", instead: "the users file is the platform's: users change through the API (POST /v1/projects/{project}/instances/{instance}/users)", everywhere: false },
    PlatformCommand { name: "backup", instead: "backups and point-in-time restores are the platform's: take one with POST /v1/projects/{project}/instances/{instance}/backups, restore into a new instance with POST /v1/projects/{project}/instances and restore_from", everywhere: true },
    PlatformCommand { name: "acl|save", instead: "the users file is the platform's: users change through the API (POST /v1/projects/{project}/instances/{instance}/users)", everywhere: false },
];

/// The CONFIG SET parameters the API changes, and how (the API's names: services/api's
/// `InstanceParametersDto`, the allowlist and users routes).
const API_SETTINGS: &[(&str, &str)] = &[
    ("appendfsync", "PATCH {instance} with {\"parameters\":{\"fsync\":...}}"),
    ("maxclients", "PATCH {instance} with {\"parameters\":{\"maxclients\":...}}"),
    ("timeout", "PATCH {instance} with {\"parameters\":{\"timeout\":...}}"),
    ("replication-mode", "PATCH {instance} with {\"parameters\":{\"replication_mode\":...}}"),
    ("allowlist", "PUT {instance}/allowlist"),
    ("requirepass", "POST {instance}/users/default/reset-password"),
];

/// For each registry index, the platform command it is (a container's row covers its subcommands).
fn by_index() -> &'static [Option<&'static PlatformCommand>] {
    static TABLE: OnceLock<Vec<Option<&'static PlatformCommand>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let reg = registry();
        let mut table = vec![None; reg.entries.len()];
        for command in PLATFORM_COMMANDS {
            let Some(index) = reg.lookup_full(command.name.as_bytes()) else { continue };
            table[index] = Some(command);
            for sub in reg.entries[index].subcommands.clone() {
                table[sub] = Some(command);
            }
        }
        table
    })
}

/// Whether `user` is one of the platform's own (see the module's comment).
pub fn is_platform_user(user: &str) -> bool {
    user.starts_with(RESERVED_PREFIX)
}

/// The `-ERR` a customer user gets for command `index` (under managed mode, or on any server
/// for the commands refused everywhere), or `None` when it may run.
pub fn refusal(index: usize, user: &str, args: &Args<'_>, managed: bool) -> Option<String> {
    let command = by_index()[index].filter(|c| managed || c.everywhere)?;
    if is_platform_user(user) {
        return None;
    }
    let fullname = &registry().entries[index].fullname;
    let shown = fullname.replace('|', " ").to_ascii_uppercase();
    let instead = if command.name == "config|set" { config_set_instead(args) } else { command.instead.to_string() };
    let what = if managed { "on a managed instance" } else { "to this user" };
    Some(format!("ERR {shown} is not available {what}: {instead}"))
}

/// CONFIG SET names the API's way to change the (first) parameter asked for.
fn config_set_instead(args: &Args<'_>) -> String {
    let asked = String::from_utf8_lossy(args.get(2)).to_ascii_lowercase();
    let name = crate::settings::find(&asked).map(|p| p.name).unwrap_or(asked.as_str());
    match API_SETTINGS.iter().find(|(setting, _)| *setting == name) {
        Some((_, how)) => format!("settings change through the API: {}", how.replace("{instance}", INSTANCE)),
        None => format!(
            "'{}' is set by the platform; settings change through the API: PATCH {INSTANCE} with parameters (fsync, maxclients, timeout, replication_mode)",
            name.chars().take(64).collect::<String>()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_names_a_command() {
        for command in PLATFORM_COMMANDS {
            assert!(registry().lookup_full(command.name.as_bytes()).is_some(), "{} is not a command", command.name);
        }
        for (setting, _) in API_SETTINGS {
            assert_eq!(crate::settings::find(setting).map(|p| p.name), Some(*setting));
        }
    }

    #[test]
    fn a_container_covers_its_subcommands() {
        let reg = registry();
        let sleep = reg.lookup_full(b"debug|sleep").unwrap();
        let whoami = reg.lookup_full(b"acl|whoami").unwrap();
        let get = reg.lookup_full(b"config|get").unwrap();
        assert!(by_index()[sleep].is_some());
        assert!(by_index()[whoami].is_none());
        assert!(by_index()[get].is_none());
    }
}
