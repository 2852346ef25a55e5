//! Collections logged at the cost of the change, against the built binary:
//! - kill -9 in the middle of pipelined HSET/RPUSH/SADD/ZADD (and HDEL) under `fsync always`,
//!   ten times: every acknowledged element is there after each restart, the elements present
//!   form a prefix of what was sent, and the list keeps its order;
//! - a hash, list, set and sorted set each grown to 1,000,000 elements over RESP, with the
//!   log's bytes per command checked every 1,000 commands (a server that logs the whole
//!   collection per write fails the first check: ~500 elements x ~40 bytes per command).

mod spawned;
use spawned::*;
use std::collections::HashSet;

const ROUNDS: usize = 10;
const PIPELINE: u64 = 32;

/// Command `n` of the stream: HSET, RPUSH, SADD or ZADD of element `n` by `n % 4`; every
/// 40th command instead deletes hash field `n - 20` (its HSET was 20 commands before).
fn command(n: u64, out: &mut Vec<u8>) {
    let e = format!("e{n}");
    let v = format!("value-{n}-{}", "x".repeat((n % 29) as usize));
    let score = n.to_string();
    match n % 4 {
        0 if is_hdel(n) => encode(&[b"HDEL", b"h", format!("e{}", n - 20).as_bytes()], out),
        0 => encode(&[b"HSET", b"h", e.as_bytes(), v.as_bytes()], out),
        1 => encode(&[b"RPUSH", b"l", e.as_bytes()], out),
        2 => encode(&[b"SADD", b"s", e.as_bytes()], out),
        _ => encode(&[b"ZADD", b"z", score.as_bytes(), e.as_bytes()], out),
    }
}

fn is_hdel(n: u64) -> bool {
    n.is_multiple_of(40) && n >= 40
}

fn strings(r: Reply) -> Vec<String> {
    match r {
        Reply::Array(items) => items
            .into_iter()
            .map(|i| match i {
                Reply::Bulk(Some(b)) => String::from_utf8(b).unwrap(),
                other => panic!("{other:?}"),
            })
            .collect(),
        other => panic!("{other:?}"),
    }
}

/// Whether command `n`'s effect can be read back alone: not an HDEL, nor an HSET whose field
/// a later HDEL deletes (those are checked through the HDEL).
fn determinable(n: u64) -> bool {
    !(is_hdel(n) || (n.is_multiple_of(4) && is_hdel(n + 20)))
}

/// The elements (`n` of `e<n>`) the four keys hold, and the hash's fields.
fn present(c: &mut Resp) -> (HashSet<u64>, HashSet<u64>) {
    let mut all = HashSet::new();
    let mut fields = HashSet::new();
    let hash = strings(c.cmd(&[b"HGETALL", b"h"]));
    for pair in hash.chunks(2) {
        let n: u64 = pair[0][1..].parse().unwrap();
        assert_eq!(pair[1], format!("value-{n}-{}", "x".repeat((n % 29) as usize)), "hash field e{n}");
        fields.insert(n);
        all.insert(n);
    }
    let list = strings(c.cmd(&[b"LRANGE", b"l", b"0", b"-1"]));
    let order: Vec<u64> = list.iter().map(|e| e[1..].parse().unwrap()).collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "list out of order");
    all.extend(order);
    for m in strings(c.cmd(&[b"SMEMBERS", b"s"])) {
        all.insert(m[1..].parse().unwrap());
    }
    let z = strings(c.cmd(&[b"ZRANGE", b"z", b"0", b"-1", b"WITHSCORES"]));
    for pair in z.chunks(2) {
        let n: u64 = pair[0][1..].parse().unwrap();
        assert_eq!(pair[1], n.to_string(), "score of e{n}");
        all.insert(n);
    }
    (all, fields)
}

/// Whether command `n` took effect, for `n` within a prefix that took effect up to it: an
/// HDEL when its field is gone (its HSET, 20 commands before, did happen); an HSET whose field
/// a later HDEL deletes when the field is there or the command after it (an RPUSH) happened.
fn took_effect(n: u64, all: &HashSet<u64>, fields: &HashSet<u64>) -> bool {
    if is_hdel(n) {
        !fields.contains(&(n - 20))
    } else if !determinable(n) {
        fields.contains(&n) || all.contains(&(n + 1))
    } else {
        all.contains(&n)
    }
}

/// Checks what a restarted server holds against commands `0..acked` acknowledged and
/// `acked..sent` sent; returns how many of the unacknowledged ones survived (a prefix).
fn verify(c: &mut Resp, acked: u64, sent: u64, when: &str) -> u64 {
    let (all, fields) = present(c);
    for n in 0..acked {
        assert!(took_effect(n, &all, &fields), "{when}: acknowledged command {n} lost");
    }
    let survived = (acked..sent).take_while(|&n| took_effect(n, &all, &fields)).count() as u64;
    for n in acked + survived..sent {
        assert!(!determinable(n) || !all.contains(&n), "{when}: command {n} survived but an earlier one did not");
    }
    survived
}

#[test]
fn acknowledged_collection_changes_survive_kill9() {
    let dir = TempDir::new("collections-kill9");
    let (mut acked, mut sent) = (0u64, 0u64);
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    for round in 0..ROUNDS {
        let mut engine = Engine::start(&dir.0, &["--fsync", "always"]);
        let mut c = engine.connect();
        acked += verify(&mut c, acked, sent, &format!("round {round}"));
        // Commands past the surviving prefix were lost with the crash: they are sent again.
        sent = acked;

        let killer = kill9_later(engine.child.id(), &mut rng, 50, 250);
        'stream: loop {
            let mut out = Vec::new();
            let first = sent;
            for n in first..first + PIPELINE {
                command(n, &mut out);
            }
            if c.send(&out).is_err() {
                break;
            }
            sent = first + PIPELINE;
            for n in first..sent {
                match c.read() {
                    Ok(Reply::Int(_)) => acked = n + 1,
                    Ok(other) => panic!("round {round}: command {n}: {other:?}"),
                    Err(_) => break 'stream,
                }
            }
        }
        killer.join().unwrap();
        engine.kill9();
        assert!(acked > 0, "round {round}: nothing was acknowledged before the kill");
    }
    let engine = Engine::start(&dir.0, &["--fsync", "always"]);
    let mut c = engine.connect();
    verify(&mut c, acked, sent, "final");
    eprintln!("{ROUNDS} kills, {acked} acknowledged collection commands, all present");
}

/// Sends `n` commands made by `make` into one key, 1,000 per pipeline, and checks the log's
/// growth per command after each pipeline; then the collection's size by `size_cmd`.
fn grow(name: &str, n: u64, make: fn(u64, &mut Vec<u8>), size_cmd: &[&[u8]]) {
    let dir = TempDir::new(name);
    let engine = Engine::start(&dir.0, &["--fsync", "everysec"]);
    let mut c = engine.connect();
    let start = c.log_bytes();
    let mut done = 0u64;
    while done < n {
        let mut out = Vec::new();
        for i in done..done + 1000 {
            make(i, &mut out);
        }
        c.send(&out).unwrap();
        for i in done..done + 1000 {
            match c.read().unwrap() {
                Reply::Int(_) => {}
                other => panic!("{name}: command {i}: {other:?}"),
            }
        }
        done += 1000;
        // Replies come after the log was written (everysec writes before replying).
        let per = (c.log_bytes() - start) as f64 / done as f64;
        assert!(per < 100.0, "{name}: {per:.1} log bytes per command after {done} commands");
    }
    assert_eq!(c.cmd(size_cmd), Reply::Int(n as i64), "{name}");
    let per = (c.log_bytes() - start) as f64 / n as f64;
    eprintln!("{name}: {n} commands, {per:.1} log bytes per command");
}

const GROWTH: u64 = 1_000_000;

#[test]
fn hash_grows_to_a_million_fields_over_resp() {
    grow("grow-hset", GROWTH, |i, out| encode(&[b"HSET", b"big", format!("f:{i:09}").as_bytes(), b"value-of-25-bytes-xxxxxxx"], out), &[b"HLEN", b"big"]);
}

#[test]
fn list_grows_to_a_million_elements_over_resp() {
    grow("grow-push", GROWTH, |i, out| {
        let cmd: &[u8] = if i % 2 == 0 { b"LPUSH" } else { b"RPUSH" };
        encode(&[cmd, b"big", format!("element:{i:09}").as_bytes()], out)
    }, &[b"LLEN", b"big"]);
}

#[test]
fn set_grows_to_a_million_members_over_resp() {
    grow("grow-sadd", GROWTH, |i, out| encode(&[b"SADD", b"big", format!("member:{i:09}").as_bytes()], out), &[b"SCARD", b"big"]);
}

#[test]
fn zset_grows_to_a_million_members_over_resp() {
    grow("grow-zadd", GROWTH, |i, out| encode(&[b"ZADD", b"big", (i as f64 * 0.25).to_string().as_bytes(), format!("member:{i:09}").as_bytes()], out), &[b"ZCARD", b"big"]);
}
