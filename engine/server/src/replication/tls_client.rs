//! TLS to the primary (`tls-replication yes`): the primary's certificate is checked against
//! `tls-ca-cert-file`, and the node's own `tls-cert-file`/`tls-key-file` are shown as client
//! certificate when set (a primary with `tls-auth-clients yes` asks for one). rustls with ring.

use crate::tls::{read_certs, read_key};
use rustls::pki_types::ServerName;
use rustls::{ClientConfig, RootCertStore};
use std::sync::Arc;
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

pub async fn connect(listeners: &crate::listeners_config::ListenersConfig, host: &str, tcp: TcpStream) -> Result<TlsStream<TcpStream>, String> {
    let ca = listeners.tls_ca_cert_file.as_ref().ok_or("tls-replication needs tls-ca-cert-file to check the primary")?;
    let mut roots = RootCertStore::empty();
    for cert in read_certs(ca)? {
        roots.add(cert).map_err(|e| format!("TLS CA {}: {e}", ca.display()))?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots);
    let config = match (&listeners.tls_cert_file, &listeners.tls_key_file) {
        (Some(cert), Some(key)) => builder
            .with_client_auth_cert(read_certs(cert)?, read_key(key)?)
            .map_err(|e| format!("TLS client certificate: {e}"))?,
        _ => builder.with_no_client_auth(),
    };
    let name = ServerName::try_from(host.to_string()).map_err(|e| format!("TLS server name {host:?}: {e}"))?;
    TlsConnector::from(Arc::new(config)).connect(name, tcp).await.map_err(|e| format!("TLS handshake with the primary: {e}"))
}
