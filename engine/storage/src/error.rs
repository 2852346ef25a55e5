//! The one error type of the storage layer.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Everything that can go wrong in `basalt-storage`.
#[derive(Debug)]
#[non_exhaustive]
pub enum StorageError {
    /// An I/O call failed (open, read, write, rename, ...).
    Io { context: String, source: io::Error },
    /// A write or fsync of the log failed earlier; the store refuses writes until it is reopened,
    /// because the kernel may have dropped the dirty pages it could not write.
    Poisoned { reason: String },
    /// The log holds a damaged record that is not at its tail (a torn tail is cut silently).
    Corrupt { path: PathBuf, offset: u64, reason: String },
    /// Another process holds the data directory.
    Locked { dir: PathBuf },
    /// An option is out of range.
    InvalidOptions(String),
    /// Encryption at rest: a wrong or missing key for the data directory, or a key given for
    /// a directory written in the clear.
    Encryption(String),
}

impl StorageError {
    pub(crate) fn io(context: impl Into<String>, source: io::Error) -> StorageError {
        StorageError::Io { context: context.into(), source }
    }
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::Io { context, source } => write!(f, "{context}: {source}"),
            StorageError::Poisoned { reason } => {
                write!(f, "the write-ahead log failed ({reason}); writes are refused until restart")
            }
            StorageError::Corrupt { path, offset, reason } => {
                write!(f, "corrupt log {} at offset {offset}: {reason}", path.display())
            }
            StorageError::Locked { dir } => write!(f, "data directory {} is in use by another process", dir.display()),
            StorageError::InvalidOptions(why) => write!(f, "invalid storage options: {why}"),
            StorageError::Encryption(why) => write!(f, "encryption at rest: {why}"),
        }
    }
}

impl std::error::Error for StorageError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StorageError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
