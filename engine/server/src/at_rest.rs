//! Encryption at rest (issue 3): `--encryption-key-file` (key `encryption-key-file` of the
//! `[security]` table) names the key the store seals its log and index with. The key itself
//! is read once at start and never shown (`CONFIG GET encryption-at-rest` says yes or no).

use crate::server::ServerError;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Debug, Clone, Default)]
pub struct AtRestConfig {
    pub encryption_key_file: Option<PathBuf>,
}

impl AtRestConfig {
    /// Applies one setting (dashed name); `Ok(false)` when the name is not this one.
    pub fn apply(&mut self, name: &str, value: &str) -> Result<bool, String> {
        match name {
            "encryption-key-file" => self.encryption_key_file = Some(PathBuf::from(value)),
            _ => return Ok(false),
        }
        Ok(true)
    }

    pub fn enabled(&self) -> bool {
        self.encryption_key_file.is_some()
    }

    /// The store's cipher, if a key file is set.
    pub fn cipher(&self) -> Result<Option<Arc<basalt_storage::Cipher>>, ServerError> {
        let Some(path) = &self.encryption_key_file else { return Ok(None) };
        let cipher = basalt_storage::Cipher::from_key_file(path).map_err(|e| ServerError::EncryptionKey(e.to_string()))?;
        Ok(Some(Arc::new(cipher)))
    }
}
