//! `basalt-rdb import`: an RDB file into an empty Basalt data dir, through basalt-storage's own
//! API, so the result is ordinary log segments basalt-server opens. Keys already expired and
//! empty collections are skipped (Redis skips both as it loads). The dir is empty again when
//! the import fails: nothing half-imported is left for a server to open.

use crate::reader::{Item, Limits, Reader};
use crate::tool_error::ToolError;
use basalt_storage::{Cipher, Db, Entry, Lsn};
use bytes::Bytes;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Bytes of RDB read between two write-outs of the store's append buffer.
const WRITE_OUT_EVERY: u64 = 8 << 20;
/// Keys of one database are stored a batch (one log record) at a time: one record per key
/// cost 1.5x the time (1M 100-byte strings).
const BATCH_KEYS: usize = 256;
const BATCH_BYTES: usize = 1 << 20;

#[derive(Debug, Clone)]
pub struct ImportOptions {
    pub rdb: PathBuf,
    pub data_dir: PathBuf,
    /// basalt-server's `databases` for this dir (16 by default); the RDB may use fewer.
    pub databases: usize,
    pub cipher: Option<Arc<Cipher>>,
    pub max_rdb_bytes: u64,
    /// Bytes of values the store keeps in memory while importing (0: no bound); the rest
    /// are in the log and read back on demand.
    pub maxmemory: u64,
    /// Import the keys of an RDB that holds Redis functions, without the functions.
    pub skip_functions: bool,
}

impl ImportOptions {
    pub fn new(rdb: impl Into<PathBuf>, data_dir: impl Into<PathBuf>) -> ImportOptions {
        ImportOptions {
            rdb: rdb.into(),
            data_dir: data_dir.into(),
            databases: 16,
            cipher: None,
            max_rdb_bytes: Limits::default().max_file_bytes,
            maxmemory: 1 << 30,
            skip_functions: false,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct ImportReport {
    /// Keys imported, by database.
    pub keys: BTreeMap<u64, u64>,
    pub expired_skipped: u64,
    pub empty_skipped: u64,
    pub functions_skipped: u64,
    pub rdb_bytes: u64,
    pub rdb_version: u32,
    pub seconds: f64,
}

impl ImportReport {
    pub fn total_keys(&self) -> u64 {
        self.keys.values().sum()
    }
}

pub fn import(opts: &ImportOptions) -> Result<ImportReport, ToolError> {
    let dir = &opts.data_dir;
    let created = match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(ToolError::Refused(format!(
                    "data dir {} is not empty: import fills an empty (or new) data dir only",
                    dir.display()
                )));
            }
            false
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => true,
        Err(e) => return Err(ToolError::io(format!("read data dir {}", dir.display()), e)),
    };
    let file = std::fs::File::open(&opts.rdb).map_err(|e| ToolError::io(format!("open {}", opts.rdb.display()), e))?;
    let size = file.metadata().map_err(|e| ToolError::io(format!("stat {}", opts.rdb.display()), e))?.len();
    if size > opts.max_rdb_bytes {
        return Err(ToolError::Refused(format!(
            "{} is {size} bytes, over the import limit of {} bytes (--max-rdb-bytes)",
            opts.rdb.display(),
            opts.max_rdb_bytes
        )));
    }
    let result = fill(opts, file);
    if result.is_err() {
        empty_again(dir, created);
    }
    result
}

fn fill(opts: &ImportOptions, file: std::fs::File) -> Result<ImportReport, ToolError> {
    let started = Instant::now();
    let db = crate::data_dir::open(&opts.data_dir, opts.databases, opts.cipher.clone(), opts.maxmemory)?;
    let limits = Limits { max_file_bytes: opts.max_rdb_bytes, ..Limits::default() };
    let mut rdb = Reader::new(file, limits)?;
    let mut report = ImportReport { rdb_version: rdb.version(), ..ImportReport::default() };
    let now = basalt_storage::now_ms();
    let mut written_at = 0;
    let mut batch = Batch::default();
    while let Some(item) = rdb.next_item()? {
        match item {
            Item::Key(kv) => {
                if kv.db >= opts.databases as u64 {
                    return Err(ToolError::Refused(format!(
                        "the RDB holds database {}; import with --databases {} or more (and run basalt-server with as many)",
                        kv.db,
                        kv.db + 1
                    )));
                }
                if kv.expires_at_ms.is_some_and(|t| t <= now) {
                    report.expired_skipped += 1;
                    continue;
                }
                if kv.value.is_empty_collection() {
                    report.empty_skipped += 1;
                    continue;
                }
                if batch.db != kv.db || batch.full() {
                    let lsn = batch.store(&db)?;
                    if rdb.offset() - written_at >= WRITE_OUT_EVERY {
                        db.wait_durable_blocking(lsn)?;
                        written_at = rdb.offset();
                    }
                    batch.db = kv.db;
                }
                *report.keys.entry(kv.db).or_default() += 1;
                batch.bytes += kv.key.len() + kv.value.mem_size();
                batch.keys.push(kv.key);
                batch.entries.push(Entry::with_expiry(kv.value, kv.expires_at_ms));
            }
            Item::Function { .. } if opts.skip_functions => report.functions_skipped += 1,
            Item::Function { .. } => {
                return Err(ToolError::Refused(
                    "the RDB holds Redis functions (FUNCTION LOAD libraries), which a Basalt data dir does not keep; \
                     load them again with FUNCTION LOAD, and import with --skip-functions"
                        .into(),
                ))
            }
            _ => {}
        }
    }
    batch.store(&db)?;
    report.rdb_bytes = rdb.offset();
    db.sync()?;
    drop(db);
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Keys of one database waiting to be stored as one record.
#[derive(Default)]
struct Batch {
    db: u64,
    keys: Vec<Bytes>,
    entries: Vec<Entry>,
    bytes: usize,
}

impl Batch {
    fn full(&self) -> bool {
        self.keys.len() >= BATCH_KEYS || self.bytes >= BATCH_BYTES
    }

    /// Stores the keys (a key already there, or twice in the batch, is refused, as Redis
    /// refuses such a file) and empties the batch.
    fn store(&mut self, db: &Db) -> Result<Lsn, ToolError> {
        if self.keys.is_empty() {
            return Ok(0);
        }
        let keys = std::mem::take(&mut self.keys);
        let entries = std::mem::take(&mut self.entries);
        self.bytes = 0;
        let names: Vec<&[u8]> = keys.iter().map(|k| &k[..]).collect();
        let (twice, lsn) = db.keyspace(self.db as usize).batch(&names, |txn| {
            for (key, entry) in names.iter().zip(entries) {
                if txn.get(key).is_some() {
                    return Some(*key);
                }
                txn.put(key, entry);
            }
            None
        })?;
        if let Some(key) = twice {
            return Err(ToolError::Refused(format!(
                "key {:?} appears twice in database {} of the RDB (Redis refuses such a file too)",
                String::from_utf8_lossy(key),
                self.db
            )));
        }
        Ok(lsn)
    }
}

/// Leaves the data dir as it was before a failed import: gone if the import made it, else empty.
fn empty_again(dir: &Path, created: bool) {
    if created {
        let _ = std::fs::remove_dir_all(dir);
        return;
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let path = e.path();
            let _ = if path.is_dir() { std::fs::remove_dir_all(&path) } else { std::fs::remove_file(&path) };
        }
    }
}
