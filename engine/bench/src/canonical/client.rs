//! One connection of the canonical workload: one request in flight, as RethinkDB's stress
//! client. Each connection owns a range of key numbers (connection c: (--first-connection + c) * STRIDE + i) and a
//! window [lo, hi) of those that exist: an insert adds hi, a delete removes lo, updates and
//! reads pick inside the window, so every read asks for keys that are there.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::args::{Canonical, Span, STRIDE};
use crate::net::{Connector, SyncConn};
use crate::proto::Reply;
use crate::rng::Rng;
use crate::stats::{Outcome, Progress, RunStats};

/// Command kinds, in the order of the report's rows.
pub const READ: usize = 0;
pub const UPDATE: usize = 1;
pub const INSERT: usize = 2;
pub const DELETE: usize = 3;

/// Keys asked for by reads and values they returned, over all connections.
#[derive(Default)]
pub struct KeyCounts {
    pub asked: AtomicU64,
    pub returned: AtomicU64,
}

pub struct ClientCtx {
    pub cfg: Arc<Canonical>,
    pub connector: Arc<Connector>,
    pub conn_index: u64,
    pub stats: Rc<RefCell<RunStats>>,
    pub progress: Arc<Progress>,
    pub stop: Arc<AtomicBool>,
    pub keys: Arc<KeyCounts>,
}

/// Keys connection `conn` finds in place when the run starts (the ones --load wrote).
pub fn initial_keys(cfg: &Canonical, conn: u64) -> u64 {
    let clients = cfg.clients as u64;
    cfg.keys / clients + u64::from(conn < cfg.keys % clients)
}

const BASE36: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// The key of number `n`: 'c', then `n` in base 36 padded with zeros to a length drawn from
/// `sizes` by a hash of `n` (the same key every time). Distinct numbers give distinct keys:
/// keys of different lengths differ, and at one length the digits are the number's.
pub fn key_of(n: u64, sizes: Span, out: &mut Vec<u8>) {
    let mut digits = [0u8; 13];
    let mut i = digits.len();
    let mut v = n;
    loop {
        i -= 1;
        digits[i] = BASE36[(v % 36) as usize];
        v /= 36;
        if v == 0 {
            break;
        }
    }
    let repr = &digits[i..];
    let spread = sizes.max - sizes.min + 1;
    let mut h = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= h >> 29;
    let len = (sizes.min + h % spread).max(repr.len() as u64 + 1) as usize;
    out.clear();
    out.push(b'c');
    out.resize(len - repr.len(), b'0');
    out.extend_from_slice(repr);
}

/// Counts the values in a memcached `get` reply (`VALUE <key> <flags> <bytes>` lines).
pub fn values_in(reply: &[u8]) -> u64 {
    let mut count = 0;
    let mut pos = 0;
    while pos < reply.len() {
        if !reply[pos..].starts_with(b"VALUE ") {
            break;
        }
        let Some(nl) = memchr::memchr(b'\n', &reply[pos..]) else { break };
        let line = &reply[pos..pos + nl.saturating_sub(1)];
        let len = line.rsplit(|&b| b == b' ').next().and_then(|f| std::str::from_utf8(f).ok()).and_then(|f| f.parse::<usize>().ok());
        let Some(len) = len else { break };
        count += 1;
        pos += nl + 1 + len + 2;
    }
    count
}

pub async fn run_client(ctx: ClientCtx) {
    let result = match ctx.connector.open().await {
        Ok(mut stream) => {
            let conn = SyncConn::new(&mut stream, ctx.connector.protocol);
            drive(&ctx, conn).await
        }
        Err(e) => Err(e),
    };
    crate::runner::connection_ended(result, ctx.conn_index, &ctx.stats, &ctx.progress);
}

fn push_store(wbuf: &mut Vec<u8>, command: &[u8], key: &[u8], value: &[u8]) {
    wbuf.extend_from_slice(command);
    wbuf.push(b' ');
    wbuf.extend_from_slice(key);
    wbuf.extend_from_slice(b" 0 0 ");
    wbuf.extend_from_slice(value.len().to_string().as_bytes());
    wbuf.extend_from_slice(b"\r\n");
    wbuf.extend_from_slice(value);
    wbuf.extend_from_slice(b"\r\n");
}

async fn drive(ctx: &ClientCtx, mut conn: SyncConn<'_>) -> Result<(), String> {
    let cfg = &*ctx.cfg;
    let mut rng = Rng::new(cfg.seed.wrapping_add((ctx.conn_index + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)));
    let mut pool = vec![0u8; cfg.value_size.max as usize + 4096];
    rng.fill_printable(&mut pool);
    let base = (u64::from(cfg.first_connection) + ctx.conn_index) * STRIDE;
    let (mut lo, mut hi) = (0u64, initial_keys(cfg, ctx.conn_index));
    let mut key = Vec::with_capacity(32);
    let limit = if cfg.load { Some(hi) } else { cfg.requests };
    let mix = cfg.mix;
    let mut done = 0u64;
    while limit.is_none_or(|n| done < n) && !ctx.stop.load(Ordering::Relaxed) {
        let draw = rng.below(mix.total());
        let mut kind = if cfg.load {
            INSERT
        } else if draw < mix.deletes {
            DELETE
        } else if draw < mix.deletes + mix.updates {
            UPDATE
        } else if draw < mix.deletes + mix.updates + mix.inserts {
            INSERT
        } else {
            READ
        };
        // Nothing to delete, update or read yet: the connection inserts instead.
        if kind != INSERT && lo == hi {
            kind = INSERT;
        }
        let mut asked = 0;
        match kind {
            INSERT => {
                let n = if cfg.load { done } else { hi };
                if n >= STRIDE {
                    return Err(format!("inserted {STRIDE} keys; start again with --load"));
                }
                key_of(base + n, cfg.key_size, &mut key);
                let len = rng.range_inclusive(cfg.value_size.min, cfg.value_size.max) as usize;
                let off = rng.below((pool.len() - len + 1) as u64) as usize;
                // The load writes with `set` (a second load rewrites); the run adds new keys.
                push_store(&mut conn.wbuf, if cfg.load { b"set" } else { b"add" }, &key, &pool[off..off + len]);
                if !cfg.load {
                    hi += 1;
                }
            }
            UPDATE => {
                key_of(base + lo + rng.below(hi - lo), cfg.key_size, &mut key);
                let len = rng.range_inclusive(cfg.value_size.min, cfg.value_size.max) as usize;
                let off = rng.below((pool.len() - len + 1) as u64) as usize;
                push_store(&mut conn.wbuf, b"set", &key, &pool[off..off + len]);
            }
            DELETE => {
                key_of(base + lo, cfg.key_size, &mut key);
                conn.wbuf.extend_from_slice(b"delete ");
                conn.wbuf.extend_from_slice(&key);
                conn.wbuf.extend_from_slice(b"\r\n");
                lo += 1;
            }
            _ => {
                asked = rng.range_inclusive(cfg.batch.min, cfg.batch.max);
                conn.wbuf.extend_from_slice(b"get");
                for _ in 0..asked {
                    key_of(base + lo + rng.below(hi - lo), cfg.key_size, &mut key);
                    conn.wbuf.push(b' ');
                    conn.wbuf.extend_from_slice(&key);
                }
                conn.wbuf.extend_from_slice(b"\r\n");
            }
        }
        let (tx0, rx0) = (conn.tx, conn.rx);
        let t0 = Instant::now();
        let (reply, text) = conn.call().await?;
        let now = Instant::now();
        let outcome = match reply {
            Reply::Error => Outcome::Error,
            Reply::Value if kind == READ => Outcome::Hit,
            Reply::Nil if kind == READ => Outcome::Miss,
            _ => Outcome::Done,
        };
        if kind == READ {
            ctx.keys.asked.fetch_add(asked, Ordering::Relaxed);
            ctx.keys.returned.fetch_add(values_in(conn.last_reply()), Ordering::Relaxed);
        }
        let (tx, rx) = (conn.tx - tx0, conn.rx - rx0);
        {
            let mut st = ctx.stats.borrow_mut();
            st.record(kind, now, t0, rx, tx, outcome);
            if outcome == Outcome::Error {
                st.note_error_reply(text);
            }
        }
        let lat = now.saturating_duration_since(t0).as_nanos() as u64;
        ctx.progress.add(1, tx + rx, lat, u64::from(outcome == Outcome::Error));
        done += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_8_to_16_bytes_and_distinct() {
        let sizes = Span { min: 8, max: 16 };
        let mut seen = std::collections::HashSet::new();
        let mut key = Vec::new();
        let mut lengths = [0u32; 17];
        for n in (0..20_000u64).chain((4095 * STRIDE)..(4095 * STRIDE + 2_000)) {
            key_of(n, sizes, &mut key);
            assert!((8..=16).contains(&key.len()), "{}", String::from_utf8_lossy(&key));
            lengths[key.len()] += 1;
            assert!(seen.insert(key.clone()));
        }
        assert!(lengths[8..=16].iter().all(|&c| c > 1000), "{lengths:?}");
    }

    #[test]
    fn counts_values_of_a_multi_get() {
        assert_eq!(values_in(b"VALUE ca 0 3\r\nabc\r\nVALUE cb 0 2\r\nxy\r\nEND\r\n"), 2);
        assert_eq!(values_in(b"END\r\n"), 0);
    }
}
