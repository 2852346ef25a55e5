//! The one error enum of the import and export tools: the RDB's, the store's, or a refusal.

use crate::error::RdbError;
use basalt_storage::StorageError;
use std::fmt;

#[derive(Debug)]
#[non_exhaustive]
pub enum ToolError {
    Rdb(RdbError),
    Storage(StorageError),
    /// The tool will not do what was asked (a non-empty data dir, a file over the limit...).
    Refused(String),
    Io { context: String, source: std::io::Error },
}

impl ToolError {
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> ToolError {
        ToolError::Io { context: context.into(), source }
    }
}

impl From<RdbError> for ToolError {
    fn from(e: RdbError) -> ToolError {
        ToolError::Rdb(e)
    }
}

impl From<StorageError> for ToolError {
    fn from(e: StorageError) -> ToolError {
        ToolError::Storage(e)
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolError::Rdb(e) => e.fmt(f),
            ToolError::Storage(e) => write!(f, "basalt storage: {e}"),
            ToolError::Refused(why) => f.write_str(why),
            ToolError::Io { context, source } => write!(f, "{context}: {source}"),
        }
    }
}

impl std::error::Error for ToolError {}
