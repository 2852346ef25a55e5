//! Encryption at rest around the log: the data dir's marker, and opening sealed fields.
//!
//! The marker `encryption.check` holds a sealed known text (`Cipher::check_token`). At open,
//! before any record is replayed: a dir with the marker needs the key that made it; a dir
//! without it is plaintext and opens only without a key (a key is accepted on a dir whose log
//! is still empty, which then becomes encrypted).

use crate::cipher::Cipher;
use ring::aead::NONCE_LEN;
use crate::error::StorageError;
use std::borrow::Cow;
use std::fs::File;
use std::io::Write;
use std::path::Path;

const MARKER: &str = "encryption.check";

/// Refuses a wrong key, a missing key, or a key for a dir written in the clear.
pub(crate) fn check_dir(dir: &Path, cipher: Option<&Cipher>) -> Result<(), StorageError> {
    let marker = dir.join(MARKER);
    let token = match std::fs::read(&marker) {
        Ok(token) => Some(token),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(StorageError::io(format!("read {}", marker.display()), e)),
    };
    match (cipher, token) {
        (None, None) => Ok(()),
        (None, Some(_)) => Err(StorageError::Encryption(format!(
            "data directory {} is encrypted; open it with its encryption key (--encryption-key-file)",
            dir.display()
        ))),
        (Some(c), Some(token)) => c.verify_check_token(&token).map_err(|_| {
            StorageError::Encryption(format!("wrong encryption key for data directory {}", dir.display()))
        }),
        (Some(c), None) => {
            if log_has_records(dir)? {
                return Err(StorageError::Encryption(format!(
                    "data directory {} holds data written without encryption; it cannot be opened with a key",
                    dir.display()
                )));
            }
            write_marker(dir, &marker, &c.check_token())
        }
    }
}

fn log_has_records(dir: &Path) -> Result<bool, StorageError> {
    let rd = std::fs::read_dir(dir).map_err(|e| StorageError::io(format!("list {}", dir.display()), e))?;
    for ent in rd {
        let ent = ent.map_err(|e| StorageError::io(format!("list {}", dir.display()), e))?;
        let name = ent.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("wal-") && name.ends_with(".log") {
            let len = ent.metadata().map_err(|e| StorageError::io(format!("stat {name}"), e))?.len();
            if len > 0 {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Writes the marker durably: a temporary file, fsync, rename, fsync of the dir.
fn write_marker(dir: &Path, marker: &Path, token: &[u8]) -> Result<(), StorageError> {
    let tmp = dir.join(format!("{MARKER}.tmp"));
    let io = |what: &str, e| StorageError::io(format!("{what} {}", marker.display()), e);
    let mut f = File::create(&tmp).map_err(|e| io("create", e))?;
    f.write_all(token).and_then(|_| f.sync_all()).map_err(|e| io("write", e))?;
    std::fs::rename(&tmp, marker).map_err(|e| io("rename to", e))?;
    crate::wal::sync_dir(dir)
}

/// The plaintext of a stored field: the bytes themselves without a cipher, else opened with
/// `aad` (the key field's AAD is `codec::KEY_AAD`, a value's is its plaintext key).
pub(crate) fn open_field<'a>(cipher: Option<&Cipher>, aad: &[u8], stored: &'a [u8]) -> Result<Cow<'a, [u8]>, String> {
    let Some(c) = cipher else { return Ok(Cow::Borrowed(stored)) };
    let mut buf = stored.to_vec();
    open_in_vec(c, aad, &mut buf)?;
    Ok(Cow::Owned(buf))
}

/// Opens a sealed field held in `buf`, leaving only its plaintext there.
pub(crate) fn open_in_vec(c: &Cipher, aad: &[u8], buf: &mut Vec<u8>) -> Result<(), String> {
    let n = c.open(aad, buf).map_err(|e| e.to_string())?.len();
    buf.truncate(NONCE_LEN + n);
    buf.drain(..NONCE_LEN);
    Ok(())
}
