//! The `[security]` table of the config file and its flags (issue 3). The table's name and
//! keys are what deployed configs (infra/ansible's `basalt.toml.j2`) and command lines use, so
//! they stay; each key belongs to the part that owns it: `access_config` (users, allowlist),
//! `listeners_config` (TLS, memcached and admin ports), `limits_config` (connection limits),
//! `at_rest` (encryption at rest).
//! ```toml
//! [security]
//! users-file = "/var/lib/basalt/users.acl"   # default: users.acl in the data dir
//! requirepass = "..."                        # the default user's password (when the users file has no default user)
//! allowlist = "10.0.0.0/8 ::1"
//! allowlist-exempt-user = "basalt:control"   # the one user a RESP client outside the allowlist may log in as
//! managed = "yes"                            # the platform's commands refused to customer users (platform_commands.rs)
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

use crate::config::Config;
use crate::config_values::apply_toml_table;

pub const USAGE: &str = "[--users-file PATH] [--requirepass PASS] [--allowlist CIDRS] [--allowlist-exempt-user NAME] [--managed yes|no] [--tls-port N] \
[--tls-cert-file PEM] [--tls-key-file PEM] [--tls-ca-cert-file PEM] [--tls-auth-clients yes|optional|no] \
[--plaintext yes|no] [--memcached-port N] [--admin-port N] [--admin-bind ADDR] [--admin-token-sha256 HEX] [--maxclients N] [--timeout SECS] \
[--client-output-buffer-limit 'BYTES SECS'] [--proto-max-bulk-len BYTES] [--encryption-key-file PATH]";

impl Config {
    /// Applies one `[security]` setting (flag name without `--`, or file key; `_` reads as
    /// `-`); `Ok(false)` when the name is not one of them.
    pub fn apply_security(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let name = name.replace('_', "-");
        Ok(self.access.apply(&name, value)?
            || self.listeners.apply(&name, value)?
            || self.limits.apply(&name, value)?
            || self.at_rest.apply(&name, value)?)
    }

    /// The `[security]` table of the config file; unknown keys are errors (typos must not pass).
    pub fn apply_security_table(&mut self, table: &toml::Table) -> Result<(), String> {
        apply_toml_table("security", table, |key, text| self.apply_security(key, text))
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Config;

    #[test]
    fn settings_parse_and_check() {
        let mut c = Config::default();
        assert!(c.apply_security("tls-port", "6380").unwrap());
        assert!(c.listeners.validate().is_err());
        c.apply_security("tls_cert_file", "a.pem").unwrap();
        c.apply_security("tls-key-file", "k.pem").unwrap();
        c.listeners.validate().unwrap();
        assert!(!c.apply_security("port", "1").unwrap());
        assert!(c.apply_security("allowlist", "10.0.0.0/99").is_err());
        assert!(c.apply_security("maxclients", "0").is_err());
        c.apply_security("client-output-buffer-limit", "1mb 5").unwrap();
        assert_eq!((c.limits.output_limit_bytes, c.limits.output_limit_secs), (1 << 20, 5));
        c.apply_security("requirepass", "hunter2").unwrap();
        assert!(!format!("{c:?}").contains("hunter2"));
        c.apply_security("encryption-key-file", "/k").unwrap();
        assert!(c.at_rest.enabled());
        let table: toml::Table = toml::from_str("memcached-port = 11211\nplaintext = true\n").unwrap();
        c.apply_security_table(&table).unwrap();
        assert_eq!(c.listeners.memcached_port, Some(11211));
        let bad: toml::Table = toml::from_str("memcache-port = 1\n").unwrap();
        assert!(c.apply_security_table(&bad).is_err());
    }
}
