//! Helpers shared by the recovery tests: a temp directory and small shorthands.
#![allow(dead_code)]

use basalt_storage::{Db, Entry, Fsync, Options, Value};
use bytes::Bytes;
use std::path::{Path, PathBuf};

/// A directory under the system temp dir, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let p = std::env::temp_dir().join(format!("basalt-storage-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn open(dir: &Path, fsync: Fsync) -> Db {
    Db::open(Options::new(dir).fsync(fsync)).unwrap()
}

/// SET key value, waiting until it may be acknowledged.
pub fn set(db: &Db, key: &str, value: &str) {
    let ((), lsn) = db.update(key.as_bytes(), |s| {
        s.put(Entry::new(Value::Str(Bytes::copy_from_slice(value.as_bytes()))));
    })
    .unwrap();
    db.wait_durable_blocking(lsn).unwrap();
}

pub fn get(db: &Db, key: &str) -> Option<String> {
    db.read(key.as_bytes(), |e| match e.map(|e| &e.value) {
        Some(Value::Str(b)) => Some(String::from_utf8(b.to_vec()).unwrap()),
        Some(other) => panic!("{key} holds {:?}", other.kind()),
        None => None,
    })
    .unwrap()
}

/// The log segment files of `dir`, oldest first.
pub fn segments(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    v.sort();
    v
}

/// SET key value in database `index`, waiting until it may be acknowledged.
pub fn put_in(db: &Db, index: usize, key: &str, value: &str) {
    let ((), lsn) = db
        .keyspace(index)
        .update(key.as_bytes(), |s| {
            s.put(Entry::new(Value::Str(Bytes::copy_from_slice(value.as_bytes()))));
        })
        .unwrap();
    db.wait_durable_blocking(lsn).unwrap();
}

/// The string of `key` in database `index`.
pub fn get_in(db: &Db, index: usize, key: &str) -> Option<String> {
    db.keyspace(index)
        .read(key.as_bytes(), |e| match e.map(|e| &e.value) {
            Some(Value::Str(b)) => Some(String::from_utf8(b.to_vec()).unwrap()),
            Some(other) => panic!("{key} holds {:?}", other.kind()),
            None => None,
        })
        .unwrap()
}

/// Each sampled cut (about 40) of the last segment of `dir` between `before` and its end, as
/// a fresh store: a copy of that segment truncated at the cut, opened. `check` sees each.
pub fn each_cut(dir: &Path, before: u64, check: impl Fn(u64, &Db)) {
    let log = segments(dir).pop().unwrap();
    let bytes = std::fs::read(&log).unwrap();
    let end = bytes.len() as u64;
    assert!(end > before, "a record was written after {before}");
    for cut in (before + 1..end).step_by(((end - before) / 40).max(1) as usize) {
        let copy_dir = TempDir::new("cut");
        let copy = copy_dir.path().join(log.file_name().unwrap());
        std::fs::write(&copy, &bytes).unwrap();
        std::fs::OpenOptions::new().write(true).open(&copy).unwrap().set_len(cut).unwrap();
        check(cut, &open(copy_dir.path(), Fsync::Always));
    }
}

/// The next number of a xorshift64 sequence kept in `state` (deterministic, never 0 from a
/// state that is not 0): the tests' random choices.
pub fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// A record as the log stored it before databases (and flags) existed: one put of a string.
pub fn old_record(key: &[u8], value: &[u8]) -> Vec<u8> {
    let mut payload = 1u32.to_le_bytes().to_vec();
    payload.extend_from_slice(&old_put(key, value));
    framed(payload)
}

/// A put op of a string as the log stored it before flags existed: tag 0, then the bytes.
pub fn old_put(key: &[u8], value: &[u8]) -> Vec<u8> {
    let mut op = vec![1u8];
    op.extend_from_slice(&(key.len() as u32).to_le_bytes());
    op.extend_from_slice(key);
    op.extend_from_slice(&0u64.to_le_bytes());
    op.extend_from_slice(&(value.len() as u32 + 1).to_le_bytes());
    op.push(0);
    op.extend_from_slice(value);
    op
}

/// Length and CRC in front of a record's payload, as the log framed it before salts (and as
/// the replication stream does).
pub fn framed(payload: Vec<u8>) -> Vec<u8> {
    let mut rec = Vec::new();
    let len = (payload.len() as u32).to_le_bytes();
    let mut crc_input = len.to_vec();
    crc_input.extend_from_slice(&payload);
    rec.extend_from_slice(&crc32fast::hash(&crc_input).to_le_bytes());
    rec.extend_from_slice(&len);
    rec.extend_from_slice(&payload);
    rec
}
