//! Users and their permissions (Redis 7 ACL): who may connect, with which password, and which
//! commands and keys each user may touch.
//!
//! The users live in memory behind one lock and in the users file (`users.acl` in the data
//! dir, or `--users-file`), rewritten atomically after every change, so they survive
//! restarts. Permissions come from the command table: `+@read` allows every command whose
//! ACL categories include `read`, so a new command is covered by the categories it declares.
//!
//! # Layout
//! - `user.rs` — one user and the `ACL SETUSER` rules that change it.
//! - `file.rs` — the users file: read at start, rewritten (temp file + rename) on change.
//! - `hash.rs` — SHA-256 password hashes.

pub mod file;
pub mod hash;
pub mod user;

use crate::auth::{Authenticator, WRONGPASS};
use crate::registry::registry;
use crate::resp::Args;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, RwLock};
pub use user::User;

/// Users named with this prefix belong to the managed service's control plane (its own user for
/// health checks and live changes). Only the users file sets them (`ACL LOAD`, a restart):
/// `ACL SETUSER` and `ACL DELUSER` refuse them, so a customer's admin user can neither lock the
/// control plane out nor give that user more rights. Customers' usernames cannot hold a `:`.
pub const RESERVED_PREFIX: &str = "basalt:";

fn reserved(name: &str) -> Result<(), String> {
    if name.starts_with(RESERVED_PREFIX) {
        return Err(format!("ERR The user '{name}' belongs to the control plane; only its users file changes it"));
    }
    Ok(())
}

/// Every user, and where they are kept.
pub struct Acl {
    users: RwLock<BTreeMap<String, Arc<User>>>,
    /// The users file; `None` keeps users in memory only (tests of the rules).
    file: Option<PathBuf>,
    /// True while `default` is enabled and may run every command on every key: its commands
    /// then skip the check (the common case of a server without users).
    default_unrestricted: AtomicBool,
}

/// Why a command was refused; `Display` is the `-NOPERM` reply.
#[derive(Debug, PartialEq, Eq)]
pub enum Denied {
    Command { user: String, command: String },
    Key,
    /// The session's user was deleted or disabled after it authenticated.
    UserGone { user: String },
    /// A channel (PUBLISH, SUBSCRIBE) or pattern (PSUBSCRIBE) outside the user's `&` rules.
    Channel,
}

impl std::fmt::Display for Denied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Denied::Command { user, command } => {
                write!(f, "NOPERM User {user} has no permissions to run the '{command}' command")
            }
            Denied::Key => f.write_str("NOPERM No permissions to access a key"),
            Denied::UserGone { user } => write!(f, "NOPERM User {user} is disabled or was deleted"),
            Denied::Channel => f.write_str("NOPERM No permissions to access a channel"),
        }
    }
}

impl Acl {
    /// Users from `file` (created with only `default` when missing); `requirepass`, when given
    /// and the file does not define `default`, becomes the default user's password.
    pub fn open(file: Option<PathBuf>, requirepass: Option<&str>) -> Result<Acl, String> {
        let mut users = match &file {
            Some(path) if path.exists() => file::load(path)?,
            _ => BTreeMap::new(),
        };
        if !users.contains_key("default") {
            let mut default = User::default_user();
            if let Some(pass) = requirepass.filter(|p| !p.is_empty()) {
                default.apply("resetpass")?;
                default.apply(&format!(">{pass}"))?;
            }
            users.insert("default".to_string(), default);
        }
        let acl = Acl {
            users: RwLock::new(users.into_iter().map(|(k, v)| (k, Arc::new(v))).collect()),
            file,
            default_unrestricted: AtomicBool::new(false),
        };
        acl.refresh_unrestricted();
        Ok(acl)
    }

    /// Users in memory only, as a fresh Redis starts.
    pub fn in_memory() -> Acl {
        Acl::open(None, None).expect("the default user is valid")
    }

    pub fn file(&self) -> Option<&PathBuf> {
        self.file.as_ref()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<String, Arc<User>>> {
        self.users.read().unwrap_or_else(|e| e.into_inner())
    }

    fn refresh_unrestricted(&self) {
        let all = self.read().get("default").map(|u| u.enabled && u.all_keys() && u.all_commands()).unwrap_or(false);
        self.default_unrestricted.store(all, Relaxed);
    }

    pub fn user(&self, name: &str) -> Option<Arc<User>> {
        self.read().get(name).cloned()
    }

    pub fn users(&self) -> Vec<Arc<User>> {
        self.read().values().cloned().collect()
    }

    /// Changes the users under the write lock, writes the file, and only then makes the
    /// change visible: a change that cannot be saved is not applied.
    fn change<R>(&self, f: impl FnOnce(&mut BTreeMap<String, Arc<User>>) -> Result<R, String>) -> Result<R, String> {
        let mut guard = self.users.write().unwrap_or_else(|e| e.into_inner());
        let mut next = guard.clone();
        let result = f(&mut next)?;
        if let Some(path) = &self.file {
            file::save(path, next.values().map(|u| u.as_ref()))?;
        }
        *guard = next;
        drop(guard);
        self.refresh_unrestricted();
        Ok(result)
    }

    /// `ACL SETUSER name rule...`: creates the user if needed; all rules apply or none.
    pub fn set_user(&self, name: &str, rules: &[String]) -> Result<(), String> {
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c.is_control()) {
            return Err("ERR Usernames can't contain spaces or null characters".to_string());
        }
        reserved(name)?;
        self.change(|users| {
            let mut user = users.get(name).map(|u| (**u).clone()).unwrap_or_else(|| User::new(name));
            for rule in rules {
                user.apply(rule).map_err(|why| format!("ERR Error in ACL SETUSER modifier '{rule}': {why}"))?;
            }
            users.insert(name.to_string(), Arc::new(user));
            Ok(())
        })?;
        // The rules may hold passwords: only the user's name and the number of rules are logged.
        crate::log::event("info", "acl_user_changed", &[("user", name), ("rules", &rules.len().to_string())]);
        Ok(())
    }

    /// `ACL DELUSER name...`: how many existed.
    pub fn delete_users(&self, names: &[String]) -> Result<usize, String> {
        if names.iter().any(|n| n == "default") {
            return Err("ERR The 'default' user cannot be removed".to_string());
        }
        names.iter().try_for_each(|n| reserved(n))?;
        let removed = self.change(|users| Ok(names.iter().filter(|n| users.remove(n.as_str()).is_some()).count()))?;
        crate::log::event("info", "acl_users_deleted", &[("users", &names.join(" ")), ("removed", &removed.to_string())]);
        Ok(removed)
    }

    /// `ACL LOAD`: replaces the users with the file's.
    pub fn reload(&self) -> Result<(), String> {
        let Some(path) = self.file.clone() else {
            return Err("ERR This Redis instance is not configured to use an ACL file.".to_string());
        };
        let mut loaded = file::load(&path)?;
        loaded.entry("default".to_string()).or_insert_with(User::default_user);
        self.change(|users| {
            *users = loaded.into_iter().map(|(k, v)| (k, Arc::new(v))).collect();
            Ok(())
        })
    }

    /// `ACL SAVE`.
    pub fn save(&self) -> Result<(), String> {
        match &self.file {
            Some(path) => file::save(path, self.users().iter().map(|u| u.as_ref())),
            None => Err("ERR This Redis instance is not configured to use an ACL file.".to_string()),
        }
    }

    /// May `user` run the command at registry index `index` with these arguments?
    pub fn permit(&self, user: &str, index: usize, args: &Args<'_>) -> Result<(), Denied> {
        if user == "default" && self.default_unrestricted.load(Relaxed) {
            return Ok(());
        }
        let Some(u) = self.user(user).filter(|u| u.enabled) else {
            return Err(Denied::UserGone { user: user.to_string() });
        };
        let reg = registry();
        if !u.allowed[index] {
            return Err(Denied::Command { user: user.to_string(), command: reg.entries[index].fullname.clone() });
        }
        if u.all_keys() {
            return Ok(());
        }
        let spec = reg.entries[index].spec;
        for key in crate::cmd::movable_keys::keys(spec, args) {
            if !u.key_patterns.iter().any(|p| crate::glob::matches(p.as_bytes(), key, false)) {
                return Err(Denied::Key);
            }
        }
        Ok(())
    }

    /// May `user` publish or subscribe to `names`? Under the `&pattern` rules a channel must
    /// match one of the patterns; a PSUBSCRIBE pattern must equal one (Redis 7).
    pub fn permit_channels(&self, user: &str, names: &[&[u8]], are_patterns: bool) -> Result<(), Denied> {
        if user == "default" && self.default_unrestricted.load(Relaxed) {
            return Ok(());
        }
        let Some(u) = self.user(user).filter(|u| u.enabled) else {
            return Err(Denied::UserGone { user: user.to_string() });
        };
        if u.channel_patterns.iter().any(|p| p == "*") {
            return Ok(());
        }
        for name in names {
            let allowed = u.channel_patterns.iter().any(|p| {
                if are_patterns {
                    p.as_bytes() == *name
                } else {
                    crate::glob::matches(p.as_bytes(), name, false)
                }
            });
            if !allowed {
                return Err(Denied::Channel);
            }
        }
        Ok(())
    }

    /// True when `user` may run anything on any key without a lookup (`default` with `+@all ~*`).
    pub fn unrestricted(&self, user: &str) -> bool {
        user == "default" && self.default_unrestricted.load(Relaxed)
    }

    /// May `user` run the RESP command `command` on `keys`? (The memcached port asks with the
    /// RESP twin of each of its commands.)
    pub fn permit_named(&self, user: &str, command: &str, keys: &[&[u8]]) -> Result<(), Denied> {
        if user == "default" && self.default_unrestricted.load(Relaxed) {
            return Ok(());
        }
        let Some(u) = self.user(user).filter(|u| u.enabled) else {
            return Err(Denied::UserGone { user: user.to_string() });
        };
        let allowed = registry().lookup(command.as_bytes()).map(|i| u.allowed[i]).unwrap_or(false);
        if !allowed {
            return Err(Denied::Command { user: user.to_string(), command: command.to_string() });
        }
        if u.all_keys() {
            return Ok(());
        }
        for key in keys {
            if !u.key_patterns.iter().any(|p| crate::glob::matches(p.as_bytes(), key, false)) {
                return Err(Denied::Key);
            }
        }
        Ok(())
    }
}

/// The key arguments of a command from its table row: first, last (negative counts from the
/// end) and step.
pub fn command_keys<'a>(first: i32, last: i32, step: i32, args: &Args<'a>) -> Vec<&'a [u8]> {
    if first <= 0 || step <= 0 || args.len() <= first as usize {
        return Vec::new();
    }
    let last = if last < 0 { args.len() as i32 + last } else { last.min(args.len() as i32 - 1) };
    (first..=last).step_by(step as usize).map(|i| args.get(i as usize)).collect()
}

impl Authenticator for Acl {
    fn requires_auth(&self) -> bool {
        self.user("default").map(|u| !(u.enabled && u.nopass)).unwrap_or(true)
    }

    fn authenticate(&self, user: Option<&[u8]>, password: &[u8]) -> Result<String, String> {
        let name = match user {
            Some(name) => String::from_utf8_lossy(name).into_owned(),
            None => {
                if self.user("default").map(|u| u.nopass).unwrap_or(false) {
                    return Err("ERR AUTH <password> called without any password configured for the default \
                                user. Are you sure your configuration is correct?"
                        .to_string());
                }
                "default".to_string()
            }
        };
        match self.user(&name) {
            Some(u) if u.enabled && u.password_matches(password) => Ok(name),
            _ => Err(WRONGPASS.to_string()),
        }
    }

    fn acl(&self) -> Option<&Acl> {
        Some(self)
    }
}

/// The authenticator the server holds when it shares the `Acl` with other parts (the
/// memcached port, the ACL commands through `Authenticator::acl`).
pub struct SharedAcl(pub Arc<Acl>);

impl Authenticator for SharedAcl {
    fn requires_auth(&self) -> bool {
        self.0.requires_auth()
    }

    fn authenticate(&self, user: Option<&[u8]>, password: &[u8]) -> Result<String, String> {
        self.0.authenticate(user, password)
    }

    fn acl(&self) -> Option<&Acl> {
        Some(&self.0)
    }
}
