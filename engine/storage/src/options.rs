//! Options for opening a store.

use crate::cipher::Cipher;
use std::path::PathBuf;
use std::sync::Arc;
use std::str::FromStr;

/// When the log is fsynced, as Redis' `appendfsync`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fsync {
    /// A write is acknowledged after the fsync that covers it (group commit).
    Always,
    /// The log is written before the reply and fsynced once a second.
    EverySec,
    /// The log is written before the reply; the kernel decides when it reaches the disk.
    No,
}

impl Fsync {
    pub fn name(self) -> &'static str {
        match self {
            Fsync::Always => "always",
            Fsync::EverySec => "everysec",
            Fsync::No => "no",
        }
    }

    pub(crate) fn to_u8(self) -> u8 {
        self as u8
    }

    pub(crate) fn from_u8(v: u8) -> Fsync {
        match v {
            0 => Fsync::Always,
            1 => Fsync::EverySec,
            _ => Fsync::No,
        }
    }
}

impl FromStr for Fsync {
    type Err = String;
    fn from_str(s: &str) -> Result<Fsync, String> {
        match s.to_ascii_lowercase().as_str() {
            "always" => Ok(Fsync::Always),
            "everysec" => Ok(Fsync::EverySec),
            "no" => Ok(Fsync::No),
            other => Err(format!("fsync must be always, everysec or no, not {other:?}")),
        }
    }
}

/// How to open a store. `Options::new(dir)` gives the defaults.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Options {
    /// Directory holding the log segments (created if missing).
    pub dir: PathBuf,
    pub fsync: Fsync,
    /// Bytes of values kept in memory; 0 means no limit. Keys and their metadata always stay
    /// in memory; colder values beyond this bound are dropped from memory and read from the
    /// log on demand.
    pub maxmemory: u64,
    /// Number of independently locked shards (a power of two is not required).
    pub shards: usize,
    /// A log segment is sealed once it grows past this many bytes.
    pub segment_bytes: u64,
    /// Compaction starts once the log holds more than this many bytes and less than half of
    /// them are live. Half of Redis's `auto-aof-rewrite-min-size` (64 MB) by default: a log
    /// record is smaller than a command in the AOF (a ZADD 64 bytes against 72), so at 64 MB
    /// the log of a small collection changed 1,000,000 times stayed 3x Redis's rewritten AOF.
    /// A compaction at this size rewrites at most half of it, so no more than it was written.
    pub compact_min_bytes: u64,
    /// Encryption at rest: keys and values in the log are sealed with this cipher. `None`
    /// (the default) writes them in the clear. A dir written with a cipher opens only with it.
    pub cipher: Option<Arc<Cipher>>,
    /// Number of logical databases (Redis' `databases`, SELECT 0..n-1). Each has its own
    /// `shards` shards; a log naming a database at or past this number does not open.
    pub databases: usize,
    /// Runs a read of a cold value that waits for the device (not in the page cache): the
    /// server hands its network thread's other work to another thread meanwhile
    /// (`cold_read.rs`). By default the read runs as it is.
    pub blocking_io: crate::BlockingIo,
    /// Archiving (`archive.rs`): compaction removes a segment only once it is marked archived
    /// (`Db::mark_archived`). Off by default, so nothing changes for a store that is not backed up.
    pub archive: bool,
    /// While archiving is on, what is appended is made durable (and so readable by a backup)
    /// within this many ms.
    pub archive_seal_interval_ms: u64,
    /// While archiving is on, seal by ending the active segment (a new segment each interval)
    /// instead of making its tail durable; kept to measure the two (engine/README.md).
    pub archive_seal_segments: bool,
}

impl Options {
    pub fn new(dir: impl Into<PathBuf>) -> Options {
        Options {
            dir: dir.into(),
            fsync: Fsync::EverySec,
            maxmemory: 0,
            shards: 64,
            segment_bytes: 64 << 20,
            compact_min_bytes: 32 << 20,
            cipher: None,
            databases: 16,
            blocking_io: crate::cold_read::inline,
            archive: false,
            archive_seal_interval_ms: 1000,
            archive_seal_segments: false,
        }
    }

    pub fn blocking_io(mut self, section: crate::BlockingIo) -> Options {
        self.blocking_io = section;
        self
    }

    pub fn fsync(mut self, fsync: Fsync) -> Options {
        self.fsync = fsync;
        self
    }

    pub fn maxmemory(mut self, bytes: u64) -> Options {
        self.maxmemory = bytes;
        self
    }

    pub fn shards(mut self, shards: usize) -> Options {
        self.shards = shards;
        self
    }

    pub fn segment_bytes(mut self, bytes: u64) -> Options {
        self.segment_bytes = bytes;
        self
    }

    pub fn compact_min_bytes(mut self, bytes: u64) -> Options {
        self.compact_min_bytes = bytes;
        self
    }

    pub fn databases(mut self, databases: usize) -> Options {
        self.databases = databases;
        self
    }

    pub fn archive(mut self, on: bool) -> Options {
        self.archive = on;
        self
    }

    pub fn archive_seal_interval_ms(mut self, ms: u64) -> Options {
        self.archive_seal_interval_ms = ms;
        self
    }

    pub fn archive_seal_segments(mut self, on: bool) -> Options {
        self.archive_seal_segments = on;
        self
    }

    pub fn cipher(mut self, cipher: Option<Arc<Cipher>>) -> Options {
        self.cipher = cipher;
        self
    }
}
