//! What a managed instance adds around the server (issue 3), built from `SecurityConfig` and
//! started by `launch`: the users (`Acl`), the IP allowlist, the connection limits, the
//! latency histograms, and the extra ports (TLS, memcached, admin HTTP).
//!
//! `Security` is reachable from every connection through `Shared::security`; `config_value`,
//! `config_set` and `Security::info` give `CONFIG GET/SET` and `INFO security` their entries.

use crate::acl::Acl;
use crate::allowlist::Allowlist;
use crate::limits::ConnLimits;
use crate::metrics::Metrics;
use crate::config::Config;
use crate::security_config::{parse_output_limit, SecurityConfig};
use crate::resp::frame::MAX_BULK_LEN;
use crate::resp::Limits;
use crate::server::Shared;
use std::net::SocketAddr;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};

/// The addresses actually bound (port 0 becomes a real port).
#[derive(Clone, Debug, Default)]
pub struct BoundAddrs {
    pub plain: Option<SocketAddr>,
    pub tls: Option<SocketAddr>,
    pub memcached: Option<SocketAddr>,
    pub admin: Option<SocketAddr>,
}

pub struct Security {
    pub acl: Arc<Acl>,
    pub allowlist: Arc<Allowlist>,
    pub limits: Arc<ConnLimits>,
    pub metrics: Arc<Metrics>,
    pub addrs: Mutex<BoundAddrs>,
    settings: Mutex<SecurityConfig>,
}

/// The parameters of ours `CONFIG GET` lists, in their Redis spelling (settings.rs lists them
/// too); `LIVE` ones change with `CONFIG SET`.
pub const PARAMETERS: &[&str] = &[
    "allowlist",
    "maxclients",
    "timeout",
    "client-output-buffer-limit",
    "proto-max-bulk-len",
    "requirepass",
    "aclfile",
    "tls-port",
    "tls-cert-file",
    "tls-key-file",
    "tls-ca-cert-file",
    "tls-auth-clients",
    "memcached-port",
    "admin-port",
    "encryption-at-rest",
];

pub const LIVE: &[&str] = &["allowlist", "maxclients", "timeout", "client-output-buffer-limit", "proto-max-bulk-len", "requirepass"];

/// The framing limits of an authenticated RESP client: `proto-max-bulk-len` from the live
/// setting (the defaults on a bare server).
pub fn request_limits(shared: &Shared) -> Limits {
    match shared.security.get() {
        Some(security) => Limits { max_bulk_len: security.limits.max_bulk_len.load(Relaxed) as usize, ..Limits::DEFAULT },
        None => Limits::DEFAULT,
    }
}

/// `CONFIG GET` of one of our parameters, from the running config (launch writes the bound
/// ports and the allowlist in effect back into it).
pub fn config_value(config: &Config, name: &str) -> String {
    let s = &config.security;
    let path = |p: &Option<std::path::PathBuf>| p.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
    let port = |p: Option<u16>| p.map(|p| p.to_string()).unwrap_or_else(|| "0".to_string());
    match name {
        "allowlist" => s.allowlist.clone(),
        "maxclients" => s.maxclients.to_string(),
        "timeout" => s.timeout_secs.to_string(),
        "client-output-buffer-limit" => format!("normal {} {}", s.output_limit_bytes, s.output_limit_secs),
        "proto-max-bulk-len" => s.proto_max_bulk_len.to_string(),
        // Never the password itself: Redis shows it, a managed service must not.
        "requirepass" => String::new(),
        "aclfile" => s.users_file.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| config.dir.join("users.acl").display().to_string()),
        "tls-port" => port(s.tls_port),
        "tls-cert-file" => path(&s.tls_cert_file),
        "tls-key-file" => path(&s.tls_key_file),
        "tls-ca-cert-file" => path(&s.tls_ca_cert_file),
        "tls-auth-clients" => match s.tls_auth_clients {
            crate::tls::ClientAuth::Required => "yes",
            crate::tls::ClientAuth::Optional => "optional",
            crate::tls::ClientAuth::No => "no",
        }
        .to_string(),
        "memcached-port" => port(s.memcached_port),
        "admin-port" => port(s.admin_port),
        "encryption-at-rest" => (if s.encryption_key_file.is_some() { "yes" } else { "no" }).to_string(),
        _ => String::new(),
    }
}

/// `CONFIG SET` of one of our parameters: applied to the running parts, then kept in the
/// running config so `CONFIG GET` shows it. The error is the text after Redis' prefix.
pub fn config_set(shared: &Shared, name: &str, value: &str) -> Result<(), String> {
    if !LIVE.contains(&name) {
        return Err("can't set immutable config".to_string());
    }
    let value = value.trim();
    let value = if name == "client-output-buffer-limit" { value.strip_prefix("normal ").unwrap_or(value) } else { value };
    let security = shared.security.get().ok_or("this server runs without the security settings")?;
    security.apply_live(name, value)?;
    let mut config = shared.config.write().unwrap_or_else(|e| e.into_inner());
    let stored = if name == "allowlist" { security.allowlist.render() } else { value.to_string() };
    if name != "requirepass" {
        let _ = config.security.apply(name, &stored);
    }
    Ok(())
}

impl Security {
    pub fn new(acl: Arc<Acl>, allowlist: Arc<Allowlist>, limits: Arc<ConnLimits>, settings: SecurityConfig) -> Security {
        Security {
            acl,
            allowlist,
            limits,
            metrics: Arc::new(Metrics::default()),
            addrs: Mutex::new(BoundAddrs::default()),
            settings: Mutex::new(settings),
        }
    }

    pub fn settings(&self) -> SecurityConfig {
        self.settings.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Applies a live change to the running parts (allowlist, limits, the default user).
    fn apply_live(&self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "allowlist" => {
                self.allowlist.set(value)?;
                crate::log::event("info", "allowlist_changed", &[("allowlist", &self.allowlist.render())]);
            }
            "maxclients" => match value.trim().parse::<usize>() {
                Ok(n) if n > 0 => self.limits.maxclients.store(n, Relaxed),
                _ => return Err("argument must be a positive number".to_string()),
            },
            "timeout" => {
                let secs = value.trim().parse::<u64>().map_err(|_| "argument must be a number of seconds".to_string())?;
                self.limits.idle_timeout_secs.store(secs, Relaxed);
            }
            "client-output-buffer-limit" => {
                let (bytes, secs) = parse_output_limit(value)?;
                self.limits.output_limit_bytes.store(bytes, Relaxed);
                self.limits.output_limit_secs.store(secs, Relaxed);
            }
            "proto-max-bulk-len" => {
                let bytes = crate::config::parse_memory(value).ok_or("argument must be a memory value")?;
                if !(1024..=MAX_BULK_LEN as u64).contains(&bytes) {
                    return Err(format!("argument must be between 1kb and {}mb", MAX_BULK_LEN >> 20));
                }
                self.limits.max_bulk_len.store(bytes, Relaxed);
            }
            "requirepass" => {
                let rules = if value.is_empty() { vec!["nopass".to_string()] } else { vec!["resetpass".to_string(), format!(">{value}")] };
                self.acl.set_user("default", &rules).map_err(|e| e.trim_start_matches("ERR ").to_string())?;
                crate::log::event("info", "requirepass_changed", &[]);
            }
            _ => return Err("can't set immutable config".to_string()),
        }
        let mut settings = self.settings.lock().unwrap_or_else(|e| e.into_inner());
        let _ = settings.apply(name, value);
        Ok(())
    }

    pub fn addrs(&self) -> BoundAddrs {
        self.addrs.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The `# Security` section of INFO.
    pub fn info(&self) -> String {
        let s = self.settings();
        let addrs = self.addrs();
        let port = |a: Option<SocketAddr>| a.map(|a| a.port().to_string()).unwrap_or_else(|| "0".to_string());
        let l = &self.limits;
        format!(
            "# Security\r\nacl_users:{}\r\nacl_default_requires_auth:{}\r\nallowlist:{}\r\nrejected_connections_allowlist:{}\r\n\
             maxclients:{}\r\nrejected_connections_maxclients:{}\r\ntimeout:{}\r\nidle_closed_connections:{}\r\n\
             client_output_buffer_limit:{} {}\r\noutput_limit_closed_connections:{}\r\ntls_port:{}\r\nplaintext_port:{}\r\n\
             memcached_port:{}\r\nadmin_port:{}\r\nencryption_at_rest:{}\r\n",
            self.acl.users().len(),
            u8::from(crate::auth::Authenticator::requires_auth(self.acl.as_ref())),
            self.allowlist.render(),
            l.refused_allowlist.load(Relaxed),
            l.maxclients.load(Relaxed),
            l.refused_maxclients.load(Relaxed),
            l.idle_timeout_secs.load(Relaxed),
            l.idle_closed.load(Relaxed),
            l.output_limit_bytes.load(Relaxed),
            l.output_limit_secs.load(Relaxed),
            l.output_cut.load(Relaxed),
            port(addrs.tls),
            port(addrs.plain),
            port(addrs.memcached),
            port(addrs.admin),
            if s.encryption_key_file.is_some() { "on" } else { "off" },
        )
    }
}
