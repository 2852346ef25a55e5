//! One YCSB client thread (one connection): synchronous operations as YCSB issues them,
//! mapped onto Redis commands by the chosen command group.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::args::Phase;
use super::generators::{java_string_hash, InsertSequence};
use super::workload::{CommandGroup, KeyChooser, Workload, OP_INSERT, OP_READ, OP_SCAN, OP_UPDATE};
use crate::net::{Connector, SyncConn};
use crate::proto::{self, Reply};
use crate::rng::Rng;
use crate::stats::{Outcome, Progress, RunStats};

const INDEX_KEY: &[u8] = b"_indices";

pub struct YcsbCtx {
    pub workload: Arc<Workload>,
    pub connector: Arc<Connector>,
    pub phase: Phase,
    pub conn_index: u64,
    /// Load: the key numbers this connection inserts. Run: `ops` operations.
    pub first_key: u64,
    pub ops: u64,
    pub seq: Arc<InsertSequence>,
    pub seed: u64,
    /// Time between operations for `-target`.
    pub interval: Option<Duration>,
    pub stats: Rc<RefCell<RunStats>>,
    pub progress: Arc<Progress>,
    pub stop: Arc<AtomicBool>,
}

pub async fn run_client(ctx: YcsbCtx) {
    let result = match ctx.connector.open().await {
        Ok(mut stream) => {
            let conn = SyncConn::new(&mut stream, ctx.connector.protocol);
            drive(&ctx, conn).await
        }
        Err(e) => Err(e),
    };
    crate::runner::connection_ended(result, ctx.conn_index, &ctx.stats, &ctx.progress);
}

/// Per-connection scratch space, reused by every operation.
struct Scratch {
    rng: Rng,
    key: Vec<u8>,
    pool: Vec<u8>,
    chooser: KeyChooser,
}

/// A random slice of the value pool.
fn pick<'a>(rng: &mut Rng, pool: &'a [u8], len: usize) -> &'a [u8] {
    let off = rng.below((pool.len() - len + 1) as u64) as usize;
    &pool[off..off + len]
}

/// An operation's outcome and, for an error reply, its text.
type OpResult = Result<(Outcome, Option<String>), String>;

async fn drive(ctx: &YcsbCtx, mut conn: SyncConn<'_>) -> Result<(), String> {
    let w = &*ctx.workload;
    let mut rng = Rng::new(ctx.seed);
    let value_bytes = (w.fieldcount as usize) * (w.fieldlength as usize);
    let mut pool = vec![0u8; value_bytes + 4096];
    rng.fill_printable(&mut pool);
    let mut s = Scratch { rng, key: Vec::with_capacity(32), pool, chooser: w.key_chooser() };
    let start = Instant::now();
    for i in 0..ctx.ops {
        if ctx.stop.load(Ordering::Relaxed) {
            break;
        }
        if let Some(iv) = ctx.interval {
            let deadline = start + iv.mul_f64(i as f64);
            if deadline > Instant::now() {
                tokio::time::sleep_until(deadline.into()).await;
            }
        }
        let (tx0, rx0) = (conn.tx, conn.rx);
        let t0 = Instant::now();
        let (kind, (outcome, error)) = match ctx.phase {
            Phase::Load => (OP_INSERT, insert(&mut conn, w, &mut s, ctx.first_key + i).await?),
            Phase::Run => {
                let op = w.choose_op(&mut s.rng);
                let result = match op {
                    OP_READ => {
                        let k = s.chooser.next(&mut s.rng, &ctx.seq);
                        read(&mut conn, w, &mut s, k).await?
                    }
                    OP_UPDATE => {
                        let k = s.chooser.next(&mut s.rng, &ctx.seq);
                        update(&mut conn, w, &mut s, k).await?
                    }
                    OP_INSERT => {
                        let k = ctx.seq.take();
                        let r = insert(&mut conn, w, &mut s, k).await?;
                        ctx.seq.acknowledge(k);
                        r
                    }
                    OP_SCAN => {
                        let k = s.chooser.next(&mut s.rng, &ctx.seq);
                        let len = s.rng.range_inclusive(1, w.maxscanlength);
                        scan(&mut conn, w, &mut s, k, len, ctx.seq.last()).await?
                    }
                    _ => {
                        let k = s.chooser.next(&mut s.rng, &ctx.seq);
                        let r = read(&mut conn, w, &mut s, k).await?;
                        let u = update(&mut conn, w, &mut s, k).await?;
                        if u.0 == Outcome::Error { u } else { r }
                    }
                };
                (op, result)
            }
        };
        let now = Instant::now();
        let (tx, rx) = (conn.tx - tx0, conn.rx - rx0);
        {
            let mut st = ctx.stats.borrow_mut();
            st.record(kind, now, t0, rx, tx, outcome);
            if let Some(e) = error {
                st.note_error_reply(e);
            }
        }
        let lat = now.saturating_duration_since(t0).as_nanos() as u64;
        ctx.progress.add(1, tx + rx, lat, u64::from(outcome == Outcome::Error));
    }
    Ok(())
}

/// Send the write buffer, read one reply; keep the first error text.
async fn call(conn: &mut SyncConn<'_>, err: &mut Option<String>) -> Result<Reply, String> {
    let (kind, text) = conn.call().await?;
    if kind == Reply::Error && err.is_none() {
        *err = Some(text);
    }
    Ok(kind)
}

fn finish(last: Reply, err: Option<String>, hit_miss: bool) -> (Outcome, Option<String>) {
    if err.is_some() {
        return (Outcome::Error, err);
    }
    let outcome = match last {
        Reply::Error => Outcome::Error,
        Reply::Value if hit_miss => Outcome::Hit,
        Reply::Nil if hit_miss => Outcome::Miss,
        _ => Outcome::Done,
    };
    (outcome, None)
}

fn push_field(wbuf: &mut Vec<u8>, field: u32, value: &[u8]) {
    let mut tmp = [0u8; 20];
    let digits = proto::digits(field as u64, &mut tmp);
    proto::push_bulk_header(wbuf, 5 + digits.len());
    wbuf.extend_from_slice(b"field");
    wbuf.extend_from_slice(digits);
    wbuf.extend_from_slice(b"\r\n");
    proto::push_bulk(wbuf, value);
}

/// HMSET key field value ... (all fields, or one).
fn encode_hmset(wbuf: &mut Vec<u8>, w: &Workload, s: &mut Scratch, only: Option<u32>) {
    let n = if only.is_some() { 1 } else { w.fieldcount as usize };
    proto::push_array_header(wbuf, 2 + 2 * n);
    proto::push_bulk(wbuf, b"HMSET");
    proto::push_bulk(wbuf, &s.key);
    let len = w.fieldlength as usize;
    match only {
        Some(f) => push_field(wbuf, f, pick(&mut s.rng, &s.pool, len)),
        None => {
            for f in 0..w.fieldcount {
                push_field(wbuf, f, pick(&mut s.rng, &s.pool, len));
            }
        }
    }
}

fn encode_set_record(wbuf: &mut Vec<u8>, w: &Workload, s: &mut Scratch) {
    let len = w.fieldcount as usize * w.fieldlength as usize;
    let value = pick(&mut s.rng, &s.pool, len);
    proto::encode_command(wbuf, &[b"SET", &s.key, value]);
}

async fn insert(conn: &mut SyncConn<'_>, w: &Workload, s: &mut Scratch, keynum: u64) -> OpResult {
    w.key_name(keynum, &mut s.key);
    let mut err = None;
    let last = match w.group {
        CommandGroup::String => {
            encode_set_record(&mut conn.wbuf, w, s);
            call(conn, &mut err).await?
        }
        CommandGroup::Hash => {
            encode_hmset(&mut conn.wbuf, w, s, None);
            call(conn, &mut err).await?;
            let mut tmp = [0u8; 20];
            let score = java_string_hash(&s.key) as i64;
            let digits = proto::digits(score.unsigned_abs(), &mut tmp);
            let mut score_text = [0u8; 21];
            let n = if score < 0 { score_text[0] = b'-'; 1 } else { 0 };
            score_text[n..n + digits.len()].copy_from_slice(digits);
            proto::encode_command(&mut conn.wbuf, &[b"ZADD", INDEX_KEY, &score_text[..n + digits.len()], &s.key]);
            call(conn, &mut err).await?
        }
    };
    Ok(finish(last, err, false))
}

async fn update(conn: &mut SyncConn<'_>, w: &Workload, s: &mut Scratch, keynum: u64) -> OpResult {
    w.key_name(keynum, &mut s.key);
    match w.group {
        CommandGroup::String => encode_set_record(&mut conn.wbuf, w, s),
        CommandGroup::Hash => {
            let only = if w.write_all_fields { None } else { Some(s.rng.below(w.fieldcount as u64) as u32) };
            encode_hmset(&mut conn.wbuf, w, s, only);
        }
    }
    let mut err = None;
    let last = call(conn, &mut err).await?;
    Ok(finish(last, err, false))
}

async fn read(conn: &mut SyncConn<'_>, w: &Workload, s: &mut Scratch, keynum: u64) -> OpResult {
    w.key_name(keynum, &mut s.key);
    let cmd: &[u8] = match w.group {
        CommandGroup::String => b"GET",
        CommandGroup::Hash => b"HGETALL",
    };
    proto::encode_command(&mut conn.wbuf, &[cmd, &s.key]);
    let mut err = None;
    let last = call(conn, &mut err).await?;
    Ok(finish(last, err, true))
}

async fn scan(conn: &mut SyncConn<'_>, w: &Workload, s: &mut Scratch, keynum: u64, len: u64, last_key: u64) -> OpResult {
    let mut err = None;
    match w.group {
        CommandGroup::String => {
            // Strings have no index: read the `len` records that follow in key-number order.
            let end = keynum.saturating_add(len).min(last_key + 1);
            let count = end.saturating_sub(keynum).max(1);
            proto::push_array_header(&mut conn.wbuf, 1 + count as usize);
            proto::push_bulk(&mut conn.wbuf, b"MGET");
            for k in keynum..keynum + count {
                w.key_name(k, &mut s.key);
                proto::push_bulk(&mut conn.wbuf, &s.key);
            }
            let last = call(conn, &mut err).await?;
            Ok(finish(last, err, true))
        }
        CommandGroup::Hash => {
            w.key_name(keynum, &mut s.key);
            let score = java_string_hash(&s.key).to_string();
            let limit = len.to_string();
            proto::encode_command(
                &mut conn.wbuf,
                &[b"ZRANGEBYSCORE", INDEX_KEY, score.as_bytes(), b"+inf", b"LIMIT", b"0", limit.as_bytes()],
            );
            let last = call(conn, &mut err).await?;
            if last != Reply::Value {
                return Ok(finish(last, err, true));
            }
            for key in bulk_items(conn.last_reply()) {
                proto::encode_command(&mut conn.wbuf, &[b"HGETALL", &key]);
                if call(conn, &mut err).await? == Reply::Error {
                    break;
                }
            }
            Ok(finish(Reply::Value, err, true))
        }
    }
}

/// The bulk strings of a flat RESP array reply (ZRANGEBYSCORE's keys).
fn bulk_items(reply: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut pos = match memchr::memchr(b'\n', reply) {
        Some(p) if reply.first() == Some(&b'*') || reply.first() == Some(&b'~') => p + 1,
        _ => return out,
    };
    while pos < reply.len() && reply[pos] == b'$' {
        let Some(nl) = memchr::memchr(b'\n', &reply[pos..]) else { break };
        let header = &reply[pos + 1..pos + nl - 1];
        let Ok(len) = std::str::from_utf8(header).unwrap_or("x").parse::<usize>() else { break };
        let start = pos + nl + 1;
        if start + len > reply.len() {
            break;
        }
        out.push(reply[start..start + len].to_vec());
        pos = start + len + 2;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bulk_items_reads_keys() {
        assert_eq!(bulk_items(b"*2\r\n$2\r\nk1\r\n$3\r\nkey\r\n"), vec![b"k1".to_vec(), b"key".to_vec()]);
        assert!(bulk_items(b"*0\r\n").is_empty());
    }
}
