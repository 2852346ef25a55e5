//! How the tools open a data dir: as basalt-server does (same `databases`, the same key), with
//! compaction off (an import only adds keys; an export rewrites nothing) and the log written
//! without fsync until the end, where the tool syncs it once.

use basalt_storage::{Cipher, Db, Fsync, Options, StorageError};
use std::path::Path;
use std::sync::Arc;

pub(crate) fn open(dir: &Path, databases: usize, cipher: Option<Arc<Cipher>>, maxmemory: u64) -> Result<Db, StorageError> {
    let options = Options::new(dir)
        .fsync(Fsync::No)
        .databases(databases)
        .cipher(cipher)
        .maxmemory(maxmemory)
        .compact_min_bytes(u64::MAX);
    Db::open(options)
}
