//! The one error enum of the RDB layer: every failure names where in the file it happened.

use std::fmt;
use std::io;

/// What can go wrong reading or writing an RDB file.
#[derive(Debug)]
#[non_exhaustive]
pub enum RdbError {
    /// An I/O call failed.
    Io { context: String, source: io::Error },
    /// The file ends before its EOF opcode and checksum: a file cut short.
    Truncated { offset: u64, reading: &'static str },
    /// The bytes at `offset` are not a valid RDB.
    Corrupt { offset: u64, reason: String },
    /// The CRC64 stored at `offset` does not match the bytes before it.
    Checksum { offset: u64, stored: u64, computed: u64 },
    /// Valid RDB content this reader does not take (modules, a newer version, ...).
    Unsupported { offset: u64, what: String },
    /// The file is larger than the limit the caller set.
    TooLarge { offset: u64, limit: u64 },
}

impl RdbError {
    pub(crate) fn io(context: impl Into<String>, source: io::Error) -> RdbError {
        RdbError::Io { context: context.into(), source }
    }

    pub(crate) fn corrupt(offset: u64, reason: impl Into<String>) -> RdbError {
        RdbError::Corrupt { offset, reason: reason.into() }
    }

    /// The byte offset in the file the error is about, when it is about one.
    pub fn offset(&self) -> Option<u64> {
        match self {
            RdbError::Io { .. } => None,
            RdbError::Truncated { offset, .. }
            | RdbError::Corrupt { offset, .. }
            | RdbError::Checksum { offset, .. }
            | RdbError::Unsupported { offset, .. }
            | RdbError::TooLarge { offset, .. } => Some(*offset),
        }
    }
}

impl fmt::Display for RdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RdbError::Io { context, source } => write!(f, "{context}: {source}"),
            RdbError::Truncated { offset, reading } => {
                write!(f, "RDB truncated: the file ends at offset {offset} while reading {reading}")
            }
            RdbError::Corrupt { offset, reason } => write!(f, "RDB corrupt at offset {offset}: {reason}"),
            RdbError::Checksum { offset, stored, computed } => write!(
                f,
                "RDB checksum mismatch: the CRC64 at offset {offset} is {stored:#018x}, the bytes before it give \
                 {computed:#018x} (the file is damaged before offset {offset})"
            ),
            RdbError::Unsupported { offset, what } => write!(f, "RDB not supported at offset {offset}: {what}"),
            RdbError::TooLarge { offset, limit } => {
                write!(f, "RDB larger than the limit of {limit} bytes (reached at offset {offset}); raise --max-rdb-bytes")
            }
        }
    }
}

impl std::error::Error for RdbError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RdbError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
