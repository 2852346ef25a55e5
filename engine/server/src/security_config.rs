//! The settings of a managed instance (issue 3): users, allowlist, TLS, memcached and admin
//! ports, connection limits, encryption at rest. Each is a command-line flag and a key of the
//! `[security]` table of the TOML config file, named alike:
//! ```toml
//! [security]
//! users-file = "/var/lib/basalt/users.acl"   # default: users.acl in the data dir
//! requirepass = "..."                        # the default user's password (when the users file has no default user)
//! allowlist = "10.0.0.0/8 ::1"
//! allowlist-exempt-user = "basalt:control"   # the one user a RESP client outside the allowlist may log in as
//! tls-port = 6380
//! tls-cert-file = "server.crt"
//! tls-key-file = "server.key"
//! tls-ca-cert-file = "ca.crt"                # clients must present a certificate it signed
//! tls-auth-clients = "yes"                   # yes | optional | no
//! plaintext = "yes"                          # "no": the RESP port speaks TLS only
//! memcached-port = 11211
//! admin-port = 9121
//! admin-bind = "127.0.0.1"
//! admin-token-sha256 = "<64 hex>"            # /metrics asks `Authorization: Bearer <token>` of this hash
//! maxclients = 10000
//! timeout = 0                                # seconds idle before a client is closed; 0 = never
//! client-output-buffer-limit = "64mb 60"     # unsent replies above this for that many seconds: cut
//! proto-max-bulk-len = "512mb"
//! encryption-key-file = "/etc/basalt/at-rest.key"
//! ```

use crate::config::parse_memory;
use crate::tls::ClientAuth;
use std::path::PathBuf;

#[derive(Debug, Clone)]
pub struct SecurityConfig {
    pub users_file: Option<PathBuf>,
    /// Never printed: `Debug` of the config shows it, so it is redacted there.
    pub requirepass: Option<Secret>,
    pub allowlist: String,
    /// The control plane's service user: a RESP client outside the allowlist whose first
    /// command is AUTH as this user (right password) is served; any other is refused.
    pub allowlist_exempt_user: Option<String>,
    pub tls_port: Option<u16>,
    pub tls_cert_file: Option<PathBuf>,
    pub tls_key_file: Option<PathBuf>,
    pub tls_ca_cert_file: Option<PathBuf>,
    pub tls_auth_clients: ClientAuth,
    pub plaintext: bool,
    pub memcached_port: Option<u16>,
    pub admin_port: Option<u16>,
    pub admin_bind: String,
    /// SHA-256 (hex) of the bearer token `/metrics` requires; none: the port is open (loopback
    /// by default). Only the hash is kept on the node, so its config cannot scrape any other.
    pub admin_token_sha256: Option<String>,
    pub maxclients: usize,
    pub timeout_secs: u64,
    pub output_limit_bytes: u64,
    pub output_limit_secs: u64,
    pub proto_max_bulk_len: u64,
    pub encryption_key_file: Option<PathBuf>,
}

/// A password that `{:?}` does not print.
#[derive(Clone)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

impl Default for SecurityConfig {
    fn default() -> SecurityConfig {
        SecurityConfig {
            users_file: None,
            requirepass: None,
            allowlist: String::new(),
            allowlist_exempt_user: None,
            tls_port: None,
            tls_cert_file: None,
            tls_key_file: None,
            tls_ca_cert_file: None,
            tls_auth_clients: ClientAuth::Required,
            plaintext: true,
            memcached_port: None,
            admin_port: None,
            admin_bind: "127.0.0.1".to_string(),
            admin_token_sha256: None,
            maxclients: 10_000,
            timeout_secs: 0,
            output_limit_bytes: 64 << 20,
            output_limit_secs: 60,
            proto_max_bulk_len: 512 << 20,
            encryption_key_file: None,
        }
    }
}

pub const USAGE: &str = "[--users-file PATH] [--requirepass PASS] [--allowlist CIDRS] [--allowlist-exempt-user NAME] [--tls-port N] \
[--tls-cert-file PEM] [--tls-key-file PEM] [--tls-ca-cert-file PEM] [--tls-auth-clients yes|optional|no] \
[--plaintext yes|no] [--memcached-port N] [--admin-port N] [--admin-bind ADDR] [--admin-token-sha256 HEX] [--maxclients N] [--timeout SECS] \
[--client-output-buffer-limit 'BYTES SECS'] [--proto-max-bulk-len BYTES] [--encryption-key-file PATH]";

pub(crate) fn yes_no(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "yes" | "true" | "on" => Ok(true),
        "no" | "false" | "off" => Ok(false),
        _ => Err(format!("{name} must be yes or no, not {value:?}")),
    }
}

fn port(name: &str, value: &str) -> Result<u16, String> {
    value.parse().map_err(|_| format!("{name} must be a port 0-65535, not {value:?}"))
}

pub(crate) fn number<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, String> {
    value.trim().parse().map_err(|_| format!("{name} must be a non-negative number, not {value:?}"))
}

pub(crate) fn memory(name: &str, value: &str) -> Result<u64, String> {
    parse_memory(value).ok_or_else(|| format!("{name}: not a memory size: {value:?}"))
}

impl SecurityConfig {
    /// Applies one setting (flag name without `--`, or file key); `Ok(false)` when the name
    /// is not one of these settings.
    pub fn apply(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let name = name.replace('_', "-");
        match name.as_str() {
            "users-file" => self.users_file = Some(PathBuf::from(value)),
            "requirepass" => self.requirepass = Some(Secret(value.to_string())),
            "allowlist" => {
                crate::allowlist::parse_list(value)?;
                self.allowlist = value.to_string();
            }
            "allowlist-exempt-user" => {
                self.allowlist_exempt_user = Some(value.to_string()).filter(|user| !user.is_empty())
            }
            "tls-port" => self.tls_port = Some(port(&name, value)?),
            "tls-cert-file" => self.tls_cert_file = Some(PathBuf::from(value)),
            "tls-key-file" => self.tls_key_file = Some(PathBuf::from(value)),
            "tls-ca-cert-file" => self.tls_ca_cert_file = Some(PathBuf::from(value)),
            "tls-auth-clients" => self.tls_auth_clients = value.parse()?,
            "plaintext" => self.plaintext = yes_no(&name, value)?,
            "memcached-port" => self.memcached_port = Some(port(&name, value)?),
            "admin-port" => self.admin_port = Some(port(&name, value)?),
            "admin-bind" => self.admin_bind = value.to_string(),
            "admin-token-sha256" => match crate::acl::hash::parse_hash(value) {
                Some(hash) => self.admin_token_sha256 = Some(hash),
                None => return Err("admin-token-sha256 must be 64 hex digits".to_string()),
            },
            "maxclients" => match number::<usize>(&name, value)? {
                0 => return Err("maxclients must be at least 1".to_string()),
                n => self.maxclients = n,
            },
            "timeout" => self.timeout_secs = number(&name, value)?,
            "client-output-buffer-limit" => {
                let (bytes, secs) = parse_output_limit(value)?;
                self.output_limit_bytes = bytes;
                self.output_limit_secs = secs;
            }
            "proto-max-bulk-len" => self.proto_max_bulk_len = memory(&name, value)?,
            "encryption-key-file" => self.encryption_key_file = Some(PathBuf::from(value)),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The `[security]` table of the config file; unknown keys are errors (typos must not pass).
    pub fn apply_table(&mut self, table: &toml::Table) -> Result<(), String> {
        apply_toml_table("security", table, |key, text| self.apply(key, text))
    }

    /// Checks settings that only make sense together.
    pub fn validate(&self) -> Result<(), String> {
        if self.tls_port.is_some() && (self.tls_cert_file.is_none() || self.tls_key_file.is_none()) {
            return Err("tls-port needs tls-cert-file and tls-key-file".to_string());
        }
        if !self.plaintext && self.tls_port.is_none() {
            return Err("plaintext no needs a tls-port".to_string());
        }
        Ok(())
    }
}

/// Applies each `key = value` of a config file table (`[security]`, `[replication]`) as the
/// flag of that name would; unknown keys are errors (typos must not pass).
pub(crate) fn apply_toml_table(
    section: &str,
    table: &toml::Table,
    mut apply: impl FnMut(&str, &str) -> Result<bool, String>,
) -> Result<(), String> {
    for (key, value) in table {
        let text = match value {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(n) => n.to_string(),
            toml::Value::Boolean(b) => (if *b { "yes" } else { "no" }).to_string(),
            other => return Err(format!("[{section}] {key}: unsupported value {}", other.type_str())),
        };
        if !apply(key, &text).map_err(|e| format!("[{section}] {e}"))? {
            return Err(format!("[{section}]: unknown key {key:?}"));
        }
    }
    Ok(())
}

/// `"64mb 60"`: bytes and seconds (Redis' `client-output-buffer-limit` soft limit).
pub fn parse_output_limit(value: &str) -> Result<(u64, u64), String> {
    let mut words = value.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(bytes), Some(secs), None) => Ok((memory("client-output-buffer-limit", bytes)?, number("client-output-buffer-limit", secs)?)),
        _ => Err(format!("client-output-buffer-limit must be 'BYTES SECONDS', not {value:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_parse_and_check() {
        let mut c = SecurityConfig::default();
        assert!(c.apply("tls-port", "6380").unwrap());
        assert!(c.validate().is_err());
        c.apply("tls_cert_file", "a.pem").unwrap();
        c.apply("tls-key-file", "k.pem").unwrap();
        c.validate().unwrap();
        assert!(!c.apply("port", "1").unwrap());
        assert!(c.apply("allowlist", "10.0.0.0/99").is_err());
        assert!(c.apply("maxclients", "0").is_err());
        c.apply("client-output-buffer-limit", "1mb 5").unwrap();
        assert_eq!((c.output_limit_bytes, c.output_limit_secs), (1 << 20, 5));
        c.apply("requirepass", "hunter2").unwrap();
        assert!(!format!("{c:?}").contains("hunter2"));
        let table: toml::Table = toml::from_str("memcached-port = 11211\nplaintext = true\n").unwrap();
        c.apply_table(&table).unwrap();
        assert_eq!(c.memcached_port, Some(11211));
        let bad: toml::Table = toml::from_str("memcache-port = 1\n").unwrap();
        assert!(c.apply_table(&bad).is_err());
    }
}
