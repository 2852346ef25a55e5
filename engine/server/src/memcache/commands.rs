//! The memcached commands over the same store as RESP: a memcached item is a Redis string,
//! its exptime a Redis expiry, so `set k` on one port is `GET k` on the other. Replies are
//! worded as memcached 1.6 words them.

use super::cas::CasTable;
use super::parse::{Keys, Request, StoreMode};
use super::McStats;
use crate::server::Shared;
use basalt_storage::{Entry, Lsn, Slot, StorageError, Value};
use bytes::Bytes;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

/// Relative exptimes up to 30 days; larger numbers are unix times (memcached's rule).
const REALTIME_MAXDELTA: i64 = 60 * 60 * 24 * 30;

pub enum Expiry {
    Never,
    At(u64),
    /// Negative, or an absolute time in the past: the item is gone at once.
    Already,
}

pub fn expiry(exptime: i64, now_ms: u64) -> Expiry {
    match exptime {
        0 => Expiry::Never,
        t if t < 0 => Expiry::Already,
        t if t <= REALTIME_MAXDELTA => Expiry::At(now_ms + t as u64 * 1000),
        t => {
            let at = t as u64 * 1000;
            if at <= now_ms {
                Expiry::Already
            } else {
                Expiry::At(at)
            }
        }
    }
}

/// What the commands need: the store, the CAS uniques and the counters.
pub struct Ctx<'a> {
    pub shared: &'a Arc<Shared>,
    pub cas: &'a CasTable,
    pub stats: &'a McStats,
    pub out: &'a mut Vec<u8>,
    pub lsn: Option<Lsn>,
}

impl Ctx<'_> {
    fn wrote(&mut self, lsn: Lsn) {
        if lsn != 0 {
            self.lsn = Some(self.lsn.map_or(lsn, |old: Lsn| old.max(lsn)));
        }
    }

    fn line(&mut self, text: &str, noreply: bool) {
        if !noreply {
            self.out.extend_from_slice(text.as_bytes());
            self.out.extend_from_slice(b"\r\n");
        }
    }
}

fn server_error(e: StorageError) -> String {
    match e {
        StorageError::Poisoned { .. } => "SERVER_ERROR the write-ahead log failed; writes are refused until restart".to_string(),
        other => format!("SERVER_ERROR {}", other.to_string().replace(['\r', '\n'], " ")),
    }
}

/// Runs one request; its reply goes to `ctx.out`.
pub fn execute(ctx: &mut Ctx<'_>, request: Request<'_>) {
    let result = match request {
        Request::Get { keys, with_cas, touch, .. } => get(ctx, keys, with_cas, touch),
        Request::Store { mode, key, flags, exptime, data, cas, noreply } => store(ctx, mode, key, flags, exptime, data, cas, noreply),
        Request::Delete { key, noreply } => delete(ctx, key, noreply),
        Request::Incr { key, delta, decr, noreply } => incr(ctx, key, delta, decr, noreply),
        Request::Touch { key, exptime, noreply } => touch(ctx, key, exptime, noreply),
        Request::FlushAll { delay, noreply } => flush_all(ctx, delay, noreply),
        Request::Version => {
            ctx.line(&format!("VERSION {}", super::VERSION), false);
            Ok(())
        }
        Request::Stats { group } => {
            super::stats::write(ctx.shared, ctx.stats, group, ctx.out);
            Ok(())
        }
        Request::Verbosity { noreply } => {
            ctx.line("OK", noreply);
            Ok(())
        }
        Request::Quit => Ok(()),
    };
    if let Err(e) = result {
        ctx.line(&server_error(e), false);
    }
}

/// `sep` then the decimal digits of `n`, without a temporary String.
fn push_number(out: &mut Vec<u8>, sep: u8, mut n: u64) {
    out.push(sep);
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

fn get(ctx: &mut Ctx<'_>, keys: Keys<'_>, with_cas: bool, touch: Option<i64>) -> Result<(), StorageError> {
    let db = &ctx.shared.db;
    for key in keys.iter() {
        ctx.stats.cmd_get.fetch_add(1, Relaxed);
        let found: Option<(Bytes, u32)> = match touch {
            None => db.read(key, |entry| match entry {
                Some(Entry { value: Value::Str(b), flags, .. }) => Some((b.clone(), *flags)),
                _ => None,
            })?,
            Some(exptime) => {
                ctx.stats.cmd_touch.fetch_add(1, Relaxed);
                let (found, lsn) = db.update(key, |slot| {
                    let found = match slot.get() {
                        Some(Entry { value: Value::Str(b), flags, .. }) => (b.clone(), *flags),
                        _ => return None,
                    };
                    match expiry(exptime, slot.now_ms()) {
                        Expiry::Never => slot.set_expiry(None),
                        Expiry::At(at) => slot.set_expiry(Some(at)),
                        Expiry::Already => slot.remove().is_some(),
                    };
                    Some(found)
                })?;
                ctx.wrote(lsn);
                found
            }
        };
        let Some((value, flags)) = found else {
            ctx.stats.get_misses.fetch_add(1, Relaxed);
            continue;
        };
        ctx.stats.get_hits.fetch_add(1, Relaxed);
        let cas = if with_cas { ctx.cas.get(key, &value) } else { 0 };
        let out = &mut *ctx.out;
        out.extend_from_slice(b"VALUE ");
        out.extend_from_slice(key);
        push_number(out, b' ', flags as u64);
        push_number(out, b' ', value.len() as u64);
        if with_cas {
            push_number(out, b' ', cas);
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&value);
        out.extend_from_slice(b"\r\n");
    }
    ctx.out.extend_from_slice(b"END\r\n");
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn store(ctx: &mut Ctx<'_>, mode: StoreMode, key: &[u8], flags: u32, exptime: i64, data: &[u8], cas: u64, noreply: bool) -> Result<(), StorageError> {
    ctx.stats.cmd_set.fetch_add(1, Relaxed);
    let uniques = ctx.cas;
    let (reply, lsn) = ctx.shared.db.update(key, |slot| {
        // The item's bytes, only for cas and append/prepend: cloned for every set, they cost a
        // malloc (the first clone of a value allocates the count its buffer is shared by).
        let current = |slot: &Slot<'_>| match slot.get().map(|e| &e.value) {
            Some(Value::Str(b)) => Some(b.clone()),
            _ => None,
        };
        let exists = slot.get().is_some();
        let expires = expiry(exptime, slot.now_ms());
        let (value, flags, expires_at) = match mode {
            StoreMode::Set => (Bytes::copy_from_slice(data), flags, expires),
            StoreMode::Add if exists => return "NOT_STORED",
            StoreMode::Add => (Bytes::copy_from_slice(data), flags, expires),
            StoreMode::Replace if !exists => return "NOT_STORED",
            StoreMode::Replace => (Bytes::copy_from_slice(data), flags, expires),
            StoreMode::Cas => {
                let Some(old) = current(slot) else {
                    return if exists { "EXISTS" } else { "NOT_FOUND" };
                };
                if !uniques.matches(key, &old, cas) {
                    return "EXISTS";
                }
                (Bytes::copy_from_slice(data), flags, expires)
            }
            StoreMode::Append | StoreMode::Prepend => {
                // memcached keeps the item's flags and exptime and ignores the given ones
                // (changing the entry in place keeps both).
                let Some(old) = current(slot) else {
                    return "NOT_STORED";
                };
                let mut joined = Vec::with_capacity(old.len() + data.len());
                if mode == StoreMode::Append {
                    joined.extend_from_slice(&old);
                    joined.extend_from_slice(data);
                } else {
                    joined.extend_from_slice(data);
                    joined.extend_from_slice(&old);
                }
                slot.get_mut().expect("the item exists").value = Value::Str(Bytes::from(joined));
                uniques.remove(key);
                return "STORED";
            }
        };
        uniques.remove(key);
        match expires_at {
            Expiry::Already => {
                slot.remove();
            }
            Expiry::Never => {
                slot.put(Entry::new(Value::Str(value)).with_flags(flags));
            }
            Expiry::At(at) => {
                slot.put(Entry::with_expiry(Value::Str(value), Some(at)).with_flags(flags));
            }
        }
        "STORED"
    })?;
    ctx.wrote(lsn);
    ctx.line(reply, noreply);
    Ok(())
}

fn delete(ctx: &mut Ctx<'_>, key: &[u8], noreply: bool) -> Result<(), StorageError> {
    ctx.stats.cmd_delete.fetch_add(1, Relaxed);
    let uniques = ctx.cas;
    let (removed, lsn) = ctx.shared.db.update(key, |slot| {
        uniques.remove(key);
        slot.remove().is_some()
    })?;
    ctx.wrote(lsn);
    ctx.line(if removed { "DELETED" } else { "NOT_FOUND" }, noreply);
    Ok(())
}

fn incr(ctx: &mut Ctx<'_>, key: &[u8], delta: u64, decr: bool, noreply: bool) -> Result<(), StorageError> {
    let uniques = ctx.cas;
    let (reply, lsn) = ctx.shared.db.update(key, |slot| {
        let old = match slot.get().map(|e| &e.value) {
            None => return "NOT_FOUND".to_string(),
            Some(Value::Str(b)) => b.clone(),
            Some(_) => return "CLIENT_ERROR cannot increment or decrement non-numeric value".to_string(),
        };
        let digits = std::str::from_utf8(&old).ok().map(|s| s.trim_end_matches(' '));
        let Some(n) = digits.and_then(|d| d.parse::<u64>().ok()) else {
            return "CLIENT_ERROR cannot increment or decrement non-numeric value".to_string();
        };
        let next = if decr { n.saturating_sub(delta) } else { n.wrapping_add(delta) };
        let text = next.to_string();
        // In place: the item keeps its flags and expiry.
        slot.get_mut().expect("the item exists").value = Value::Str(Bytes::from(text.clone().into_bytes()));
        uniques.remove(key);
        text
    })?;
    ctx.stats.incr_decr.fetch_add(1, Relaxed);
    ctx.wrote(lsn);
    ctx.line(&reply, noreply);
    Ok(())
}

fn touch(ctx: &mut Ctx<'_>, key: &[u8], exptime: i64, noreply: bool) -> Result<(), StorageError> {
    ctx.stats.cmd_touch.fetch_add(1, Relaxed);
    let (found, lsn) = ctx.shared.db.update(key, |slot| match expiry(exptime, slot.now_ms()) {
        Expiry::Never => slot.set_expiry(None),
        Expiry::At(at) => slot.set_expiry(Some(at)),
        Expiry::Already => slot.remove().is_some(),
    })?;
    ctx.wrote(lsn);
    ctx.line(if found { "TOUCHED" } else { "NOT_FOUND" }, noreply);
    Ok(())
}

fn flush_all(ctx: &mut Ctx<'_>, delay: i64, noreply: bool) -> Result<(), StorageError> {
    ctx.stats.cmd_flush.fetch_add(1, Relaxed);
    if delay > 0 {
        // memcached invalidates at that time; here the flush runs then, on the server's runtime.
        let shared = ctx.shared.clone();
        tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_secs(delay as u64)).await;
            if let Ok(lsn) = shared.db.flush_all() {
                let _ = shared.db.wait_durable(lsn).await;
            }
        });
    } else {
        let lsn = ctx.shared.db.flush_all()?;
        ctx.cas.clear();
        ctx.wrote(lsn);
    }
    ctx.line("OK", noreply);
    Ok(())
}
