//! One memtier-mode connection: keeps `--pipeline` requests in flight, encodes each request
//! straight into a reused write buffer and scans replies in place in a reused read buffer.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use crate::cli::{Config, Stop};
use crate::keys::{KeyGen, ValueSource};
use crate::net::{Connector, Stream};
use crate::proto::{self, Reply};
use crate::rng::Rng;
use crate::stats::{Outcome, Progress, RunStats};

pub const KIND_SET: usize = 0;
pub const KIND_GET: usize = 1;
pub const KIND_NAMES: [&str; 3] = ["Sets", "Gets", "Waits"];

const READ_BUF: usize = 64 * 1024;

/// What one connection needs besides the shared config.
pub struct ClientCtx {
    pub cfg: Arc<Config>,
    pub connector: Arc<Connector>,
    pub conn_index: u64,
    pub seed: u64,
    pub stats: Rc<RefCell<RunStats>>,
    pub progress: Arc<Progress>,
    pub stop: Arc<AtomicBool>,
}

pub async fn run_client(ctx: ClientCtx) {
    let result = match ctx.connector.open().await {
        Err(e) => Err(e),
        Ok(Stream::Plain(mut tcp)) => {
            let (r, w) = tcp.split();
            drive(&ctx, r, w).await
        }
        Ok(Stream::Tls(tls)) => {
            let (r, w) = tokio::io::split(*tls);
            drive(&ctx, r, w).await
        }
    };
    if let Err(e) = result {
        ctx.stats.borrow_mut().note_connection_error(format!("connection {}: {e}", ctx.conn_index));
        ctx.progress.errors.fetch_add(1, Ordering::Relaxed);
    }
    ctx.progress.connections_done.fetch_add(1, Ordering::Relaxed);
}

struct InFlight {
    kind: usize,
    sent: Instant,
    tx: u32,
}

async fn drive<R, W>(ctx: &ClientCtx, mut rd: R, mut wr: W) -> Result<(), String>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let cfg = &*ctx.cfg;
    let conns = cfg.threads as u64 * cfg.clients as u64;
    let prefix = cfg.key_prefix.as_bytes();
    let mut rng = Rng::new(ctx.seed);
    let mut set_keys = KeyGen::new(cfg.set_pattern, cfg.key_min, cfg.key_max, cfg.key_median, cfg.key_stddev, ctx.conn_index, conns);
    let mut get_keys = KeyGen::new(cfg.get_pattern, cfg.key_min, cfg.key_max, cfg.key_median, cfg.key_stddev, ctx.conn_index, conns);
    let mut values = ValueSource::new(cfg.sizes.clone(), cfg.random_data, &mut rng);
    let limit = match cfg.stop {
        Stop::Requests(n) => n,
        Stop::Seconds(_) => u64::MAX,
    };
    let pipeline = cfg.pipeline as usize;
    let (sets, gets) = cfg.ratio;
    let cycle = sets + gets;
    let interval = cfg.rate_limit.map(|r| Duration::from_secs_f64(1.0 / r as f64));
    // --command mode: each command its own key generator; the kinds follow one another in a
    // cycle where each appears as often as its ratio, as SET and GET do in --ratio's.
    let mut command_keys: Vec<KeyGen> = cfg
        .commands
        .iter()
        .map(|c| KeyGen::new(c.key_pattern, cfg.key_min, cfg.key_max, cfg.key_median, cfg.key_stddev, ctx.conn_index, conns))
        .collect();
    let command_cycle: Vec<usize> = cfg.commands.iter().enumerate().flat_map(|(i, c)| std::iter::repeat(i).take(c.ratio as usize)).collect();
    let commands = !command_cycle.is_empty();

    let mut issued = 0u64;
    let mut ratio_pos = 0u32;
    let mut next_send = Instant::now();
    let mut inflight: VecDeque<InFlight> = VecDeque::with_capacity(pipeline);
    let mut wbuf: Vec<u8> = Vec::with_capacity(pipeline * (cfg.sizes.max() as usize + prefix.len() + 64));
    let mut wpos = 0usize;
    let mut rbuf = vec![0u8; READ_BUF];
    let (mut rs, mut re) = (0usize, 0usize);

    loop {
        let stopped = ctx.stop.load(Ordering::Relaxed);
        let mut rate_wait = false;
        if !stopped && issued < limit && inflight.len() < pipeline {
            let now = Instant::now();
            while inflight.len() < pipeline && issued < limit {
                if let Some(iv) = interval {
                    if now < next_send {
                        rate_wait = true;
                        break;
                    }
                    // Do not burst to catch up after a stall longer than a second.
                    next_send = if now.duration_since(next_send) > Duration::from_secs(1) { now + iv } else { next_send + iv };
                }
                let (kind, tx) = if commands {
                    let kind = command_cycle[ratio_pos as usize];
                    ratio_pos = if ratio_pos as usize + 1 >= command_cycle.len() { 0 } else { ratio_pos + 1 };
                    let command = &cfg.commands[kind];
                    let key = command_keys[kind].next(&mut rng);
                    let value = if command.uses_data() { values.next(&mut rng) } else { &[] };
                    (kind, command.encode(&mut wbuf, prefix, key, value))
                } else {
                    let kind = if ratio_pos < sets { KIND_SET } else { KIND_GET };
                    ratio_pos = if ratio_pos + 1 >= cycle { 0 } else { ratio_pos + 1 };
                    (kind, set_or_get(cfg, &mut wbuf, kind, &mut set_keys, &mut get_keys, &mut values, &mut rng))
                };
                inflight.push_back(InFlight { kind, sent: now, tx: tx as u32 });
                issued += 1;
            }
        }
        if inflight.is_empty() {
            if stopped || issued >= limit {
                return Ok(());
            }
            tokio::time::sleep_until(next_send.into()).await;
            continue;
        }
        tokio::select! {
            biased;
            written = wr.write(&wbuf[wpos..]), if wpos < wbuf.len() => {
                let n = written.map_err(|e| format!("write failed: {e}"))?;
                if n == 0 {
                    return Err("connection closed while writing".into());
                }
                wpos += n;
                if wpos == wbuf.len() {
                    wbuf.clear();
                    wpos = 0;
                }
            }
            got = rd.read(&mut rbuf[re..]) => {
                let n = got.map_err(|e| format!("read failed: {e}"))?;
                if n == 0 {
                    return Err("connection closed by server".into());
                }
                re += n;
                let now = Instant::now();
                let (mut ops, mut bytes, mut lat, mut errs) = (0u64, 0u64, 0u64, 0u64);
                {
                    let mut st = ctx.stats.borrow_mut();
                    loop {
                        let (len, kind) = match proto::scan(cfg.protocol, &rbuf[rs..re]) {
                            Err(e) => return Err(e.to_string()),
                            Ok(None) => break,
                            Ok(Some(found)) => found,
                        };
                        if kind == Reply::Push {
                            rs += len;
                            continue;
                        }
                        let req = inflight.pop_front().ok_or("server sent a reply to no request")?;
                        let outcome = match kind {
                            Reply::Error => {
                                st.note_error_reply(proto::error_text(&rbuf[rs..rs + len]));
                                errs += 1;
                                Outcome::Error
                            }
                            Reply::Nil if req.kind == KIND_GET && !commands => Outcome::Miss,
                            Reply::Value if req.kind == KIND_GET && !commands => Outcome::Hit,
                            _ => Outcome::Done,
                        };
                        st.record(req.kind, now, req.sent, len as u64, req.tx as u64, outcome);
                        ops += 1;
                        bytes += len as u64 + req.tx as u64;
                        lat += now.saturating_duration_since(req.sent).as_nanos() as u64;
                        rs += len;
                    }
                }
                ctx.progress.add(ops, bytes, lat, errs);
                if rs == re {
                    rs = 0;
                    re = 0;
                } else if re == rbuf.len() {
                    if rs > 0 {
                        rbuf.copy_within(rs..re, 0);
                        re -= rs;
                        rs = 0;
                    } else {
                        let grown = rbuf.len() * 2;
                        rbuf.resize(grown, 0);
                    }
                }
            }
            _ = tokio::time::sleep_until(next_send.into()), if rate_wait => {}
        }
    }
}

/// The next SET or GET of the --ratio mode, encoded; returns its bytes.
#[inline]
fn set_or_get(cfg: &Config, wbuf: &mut Vec<u8>, kind: usize, set_keys: &mut KeyGen, get_keys: &mut KeyGen, values: &mut ValueSource, rng: &mut Rng) -> usize {
    let prefix = cfg.key_prefix.as_bytes();
    if kind == KIND_SET {
        let key = set_keys.next(rng);
        let value = values.next(rng);
        proto::encode_set(wbuf, cfg.protocol, prefix, key, value)
    } else {
        let key = get_keys.next(rng);
        proto::encode_get(wbuf, cfg.protocol, prefix, key)
    }
}

/// memtier's seeds: fixed unless `--randomize`; the same for every client unless
/// `--distinct-client-seed`.
pub fn client_seed(base: u64, distinct: bool, conn_index: u64) -> u64 {
    if distinct {
        base.wrapping_add((conn_index + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    } else {
        base
    }
}
