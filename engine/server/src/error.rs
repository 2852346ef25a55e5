//! The one error enum of the command layer; `Display` gives the reply text exactly as Redis
//! words it (code first: `ERR`, `WRONGTYPE`, ...).

use basalt_storage::StorageError;
use std::fmt;

#[derive(Debug)]
#[non_exhaustive]
pub enum CmdError {
    WrongType,
    NotInteger,
    NotFloat,
    Syntax,
    Overflow,
    NoSuchKey,
    /// `invalid expire time in 'set' command`
    InvalidExpire(&'static str),
    /// `wrong number of arguments for 'x' command`, when found by the command itself.
    WrongArgs(&'static str),
    /// Any other error, code included (`ERR ...`, `NOPROTO ...`).
    Other(String),
    Storage(StorageError),
}

pub type CmdResult = Result<(), CmdError>;

impl CmdError {
    pub fn msg(text: impl Into<String>) -> CmdError {
        CmdError::Other(text.into())
    }

    /// Redis' answer to a subcommand a container command (`XGROUP`, `CLIENT`, ...) does not
    /// know, or knows with other arguments.
    pub fn bad_subcommand(container: &str, sub: &[u8]) -> CmdError {
        CmdError::Other(format!(
            "ERR unknown subcommand or wrong number of arguments for '{}'. Try {container} HELP.",
            String::from_utf8_lossy(sub)
        ))
    }
}

impl fmt::Display for CmdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CmdError::WrongType => f.write_str("WRONGTYPE Operation against a key holding the wrong kind of value"),
            CmdError::NotInteger => f.write_str("ERR value is not an integer or out of range"),
            CmdError::NotFloat => f.write_str("ERR value is not a valid float"),
            CmdError::Syntax => f.write_str("ERR syntax error"),
            CmdError::Overflow => f.write_str("ERR increment or decrement would overflow"),
            CmdError::NoSuchKey => f.write_str("ERR no such key"),
            CmdError::InvalidExpire(cmd) => write!(f, "ERR invalid expire time in '{cmd}' command"),
            CmdError::WrongArgs(cmd) => write!(f, "ERR wrong number of arguments for '{cmd}' command"),
            CmdError::Other(text) => f.write_str(text),
            CmdError::Storage(StorageError::Poisoned { .. }) => {
                f.write_str("MISCONF Errors writing to the write-ahead log; writes are refused until restart")
            }
            CmdError::Storage(e) => write!(f, "ERR storage: {e}"),
        }
    }
}

impl From<StorageError> for CmdError {
    fn from(e: StorageError) -> CmdError {
        CmdError::Storage(e)
    }
}
