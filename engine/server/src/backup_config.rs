//! Backups and point-in-time recovery (issue 44): the `[backup]` table of the config file and
//! its flags. Archiving is off by default, so a deployment that is not backed up runs as before.
//! ```toml
//! [backup]
//! archive = "yes"                          # compaction keeps segments until BACKUP ARCHIVED
//! archive-seal-interval = 1000             # ms: what is appended is readable by BACKUP within it
//! archive-seal-mode = "tail"               # tail (default) | segment: see engine/README.md
//! backup-key-file = "/etc/basalt/backup.key" # BACKUP READ seals its bytes with this key
//! ```
//! The backup key, like the at-rest key, is a file (32 raw bytes, 64 hex digits or base64),
//! read once at start and never shown (`CONFIG GET backup-encryption` says yes or no).

use crate::config_values::{number, yes_no};
use crate::server::ServerError;
use std::path::PathBuf;
use std::sync::Arc;

pub const USAGE: &str = "[--archive yes|no] [--archive-seal-interval MS] [--archive-seal-mode tail|segment] [--backup-key-file PATH]";

#[derive(Debug, Clone)]
pub struct BackupConfig {
    pub archive: bool,
    pub seal_interval_ms: u64,
    /// Seal by ending the active segment instead of making its tail durable.
    pub seal_segments: bool,
    pub backup_key_file: Option<PathBuf>,
}

impl Default for BackupConfig {
    fn default() -> BackupConfig {
        BackupConfig { archive: false, seal_interval_ms: 1000, seal_segments: false, backup_key_file: None }
    }
}

/// The seal interval's text: a number of ms from 1 to one day.
pub fn parse_seal_interval(value: &str) -> Result<u64, String> {
    let ms: u64 = number("archive-seal-interval", value)?;
    if !(1..=86_400_000).contains(&ms) {
        return Err(format!("archive-seal-interval must be 1-86400000 ms, not {ms}"));
    }
    Ok(ms)
}

impl BackupConfig {
    /// Applies one setting (dashed name); `Ok(false)` when the name is not one of these.
    pub fn apply(&mut self, name: &str, value: &str) -> Result<bool, String> {
        match name.replace('_', "-").as_str() {
            "archive" => self.archive = yes_no("archive", value)?,
            "archive-seal-interval" => self.seal_interval_ms = parse_seal_interval(value)?,
            "archive-seal-mode" => {
                self.seal_segments = match value.to_ascii_lowercase().as_str() {
                    "tail" => false,
                    "segment" => true,
                    _ => return Err(format!("archive-seal-mode must be tail or segment, not {value:?}")),
                }
            }
            "backup-key-file" => self.backup_key_file = Some(PathBuf::from(value)),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The `[backup]` table of the config file; unknown keys are errors.
    pub fn apply_table(&mut self, table: &toml::Table) -> Result<(), String> {
        crate::config_values::apply_toml_table("backup", table, |key, text| self.apply(key, text))
    }

    /// The cipher BACKUP READ seals with, if a key file is set.
    pub fn cipher(&self) -> Result<Option<Arc<basalt_storage::Cipher>>, ServerError> {
        let Some(path) = &self.backup_key_file else { return Ok(None) };
        let cipher = basalt_storage::Cipher::from_key_file(path).map_err(|e| ServerError::BackupKey(e.to_string()))?;
        Ok(Some(Arc::new(cipher)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_parse_and_check() {
        let mut c = BackupConfig::default();
        assert!(!c.archive);
        assert!(c.apply("archive", "yes").unwrap() && c.archive);
        assert!(c.apply("archive_seal_interval", "250").unwrap());
        assert_eq!(c.seal_interval_ms, 250);
        for bad in ["0", "-1", "x", "86400001"] {
            assert!(c.apply("archive-seal-interval", bad).is_err(), "{bad}");
        }
        assert!(c.apply("archive-seal-mode", "segment").unwrap() && c.seal_segments);
        assert!(c.apply("archive-seal-mode", "sometimes").is_err());
        assert!(!c.apply("port", "1").unwrap());
        let table: toml::Table = toml::from_str("archive = true\nbackup-key-file = \"/k\"\n").unwrap();
        c.apply_table(&table).unwrap();
        assert_eq!(c.backup_key_file, Some(PathBuf::from("/k")));
        let bad: toml::Table = toml::from_str("archiv = true\n").unwrap();
        assert!(c.apply_table(&bad).is_err());
    }
}
