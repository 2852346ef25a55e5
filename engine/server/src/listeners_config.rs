//! Which ports an instance listens on and how (issue 3): the TLS port and its certificates,
//! whether the plain RESP port stays open, the memcached port, the admin HTTP port, its
//! address and the hash of its bearer token. Keys of the `[security]` table and flags of the
//! same names (`security_table.rs` routes them here); `launch` binds them.

use crate::config_values::{port, yes_no};
use crate::tls::ClientAuth;
use std::path::PathBuf;

#[derive(Debug, Clone)]
pub struct ListenersConfig {
    pub tls_port: Option<u16>,
    pub tls_cert_file: Option<PathBuf>,
    pub tls_key_file: Option<PathBuf>,
    pub tls_ca_cert_file: Option<PathBuf>,
    pub tls_auth_clients: ClientAuth,
    /// "no": the RESP port speaks TLS only.
    pub plaintext: bool,
    pub memcached_port: Option<u16>,
    pub admin_port: Option<u16>,
    pub admin_bind: String,
    /// SHA-256 (hex) of the bearer token `/metrics` requires; none: the port is open (loopback
    /// by default). Only the hash is kept on the node, so its config cannot scrape any other.
    pub admin_token_sha256: Option<String>,
}

impl Default for ListenersConfig {
    fn default() -> ListenersConfig {
        ListenersConfig {
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
        }
    }
}

impl ListenersConfig {
    /// Applies one setting (dashed name); `Ok(false)` when the name is not one of these.
    pub fn apply(&mut self, name: &str, value: &str) -> Result<bool, String> {
        match name {
            "tls-port" => self.tls_port = Some(port(name, value)?),
            "tls-cert-file" => self.tls_cert_file = Some(PathBuf::from(value)),
            "tls-key-file" => self.tls_key_file = Some(PathBuf::from(value)),
            "tls-ca-cert-file" => self.tls_ca_cert_file = Some(PathBuf::from(value)),
            "tls-auth-clients" => self.tls_auth_clients = value.parse()?,
            "plaintext" => self.plaintext = yes_no(name, value)?,
            "memcached-port" => self.memcached_port = Some(port(name, value)?),
            "admin-port" => self.admin_port = Some(port(name, value)?),
            "admin-bind" => self.admin_bind = value.to_string(),
            "admin-token-sha256" => match crate::acl::hash::parse_hash(value) {
                Some(hash) => self.admin_token_sha256 = Some(hash),
                None => return Err("admin-token-sha256 must be 64 hex digits".to_string()),
            },
            _ => return Ok(false),
        }
        Ok(true)
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
