//! The running parts a managed instance adds around the server (issue 3), built by `launch`
//! from the config's access, listeners and limits: the users (`Acl`), the IP allowlist, the
//! live connection limits, the latency histograms behind `/metrics`, and the addresses the
//! extra ports (TLS, memcached, admin HTTP) were bound to.
//!
//! `Managed` is reachable from every connection through `Shared::managed`; `apply_live` is
//! how `CONFIG SET` (`settings.rs`) changes its live parts, `info` is the `INFO security`
//! section.

use crate::acl::Acl;
use crate::allowlist::Allowlist;
use crate::limits::ConnLimits;
use crate::metrics::Metrics;
use crate::config::Config;
use crate::limits_config::parse_output_limit;
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

pub struct Managed {
    pub acl: Arc<Acl>,
    pub allowlist: Arc<Allowlist>,
    pub limits: Arc<ConnLimits>,
    pub metrics: Arc<Metrics>,
    pub addrs: Mutex<BoundAddrs>,
}

/// The framing limits of an authenticated RESP client: `proto-max-bulk-len` from the live
/// setting (the defaults on a bare server).
pub fn request_limits(shared: &Shared) -> Limits {
    match shared.managed.get() {
        Some(managed) => Limits { max_bulk_len: managed.limits.max_bulk_len.load(Relaxed) as usize, ..Limits::DEFAULT },
        None => Limits::DEFAULT,
    }
}

impl Managed {
    pub fn new(acl: Arc<Acl>, allowlist: Arc<Allowlist>, limits: Arc<ConnLimits>) -> Managed {
        Managed { acl, allowlist, limits, metrics: Arc::new(Metrics::default()), addrs: Mutex::new(BoundAddrs::default()) }
    }

    /// Applies a live change to the running parts (allowlist, limits, the default user); the
    /// error is the text after Redis' `CONFIG SET failed` prefix.
    pub fn apply_live(&self, name: &str, value: &str) -> Result<(), String> {
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
        Ok(())
    }

    pub fn addrs(&self) -> BoundAddrs {
        self.addrs.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The `# Security` section of INFO.
    pub fn info(&self, config: &Config) -> String {
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
            if config.at_rest.enabled() { "on" } else { "off" },
        )
    }
}
