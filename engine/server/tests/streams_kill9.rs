//! Streams are in the log before they are acknowledged, and logged at the cost of the change:
//! - every stream write command (XADD with trimming, XDEL, XTRIM, XSETID, XGROUP, XREADGROUP,
//!   XACK, XCLAIM, XAUTOCLAIM) under `fsync always`, then kill -9: the stream reads back the
//!   same (entries, counters, groups, pending entries with their delivery times and counts,
//!   consumers with their seen times), also when read cold from the log;
//! - kill -9 in the middle of pipelined XADDs and XREADGROUPs, eight times: every
//!   acknowledged entry is there after each restart and the entries present are a prefix of
//!   what was sent;
//! - a stream grown to 200,000 entries by XADD over RESP, with the log's bytes per command
//!   checked after every 1,000 commands (a server that logs the whole stream fails at once).

mod spawned;
use spawned::*;

/// Reads that show everything the writes changed (XINFO ... FULL shows delivery and seen
/// times: they are kept in the log, so they read back equal).
const READS: &[&[&str]] = &[
    &["XINFO", "STREAM", "s", "FULL", "COUNT", "0"],
    &["XINFO", "STREAM", "s"],
    &["XINFO", "GROUPS", "s"],
    &["XRANGE", "s", "-", "+"],
    &["XPENDING", "s", "g"],
    &["XINFO", "STREAM", "empty", "FULL"],
    &["TYPE", "s"],
];

fn snapshot(c: &mut Resp) -> Vec<Reply> {
    READS.iter().map(|r| c.cmd(&r.iter().map(|a| a.as_bytes()).collect::<Vec<_>>())).collect()
}

fn run(c: &mut Resp, args: &[&str]) -> Reply {
    let reply = c.cmd(&args.iter().map(|a| a.as_bytes()).collect::<Vec<_>>());
    assert!(!matches!(reply, Reply::Error(_)), "{args:?}: {reply:?}");
    reply
}

#[test]
fn stream_writes_survive_kill9_and_read_back_cold() {
    let dir = TempDir::new("streams-kill9");
    let mut engine = Engine::start(&dir.0, &["--fsync", "always"]);
    let mut c = engine.connect();
    let writes: &[&[&str]] = &[
        &["XADD", "s", "1-1", "a", "1"],
        &["XADD", "s", "1-*", "b", "2", "c", "3"],
        &["XADD", "s", "2", "d", "4"],
        &["XADD", "s", "3-*", "e", "5"],
        &["XGROUP", "CREATE", "s", "g", "0"],
        &["XGROUP", "CREATE", "s", "g2", "$", "ENTRIESREAD", "4"],
        &["XGROUP", "CREATE", "s", "gone", "0"],
        &["XGROUP", "CREATE", "empty", "g", "$", "MKSTREAM"],
        &["XGROUP", "CREATECONSUMER", "s", "g", "idle"],
        &["XREADGROUP", "GROUP", "g", "alice", "COUNT", "2", "STREAMS", "s", ">"],
        &["XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", ">"],
        &["XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", "0"],
        &["XADD", "s", "MAXLEN", "10", "5-0", "f", "6"],
        &["XREADGROUP", "GROUP", "g", "carol", "NOACK", "STREAMS", "s", ">"],
        &["XACK", "s", "g", "1-1"],
        &["XCLAIM", "s", "g", "dave", "0", "1-2", "RETRYCOUNT", "5"],
        &["XAUTOCLAIM", "s", "g", "erin", "0", "0", "COUNT", "1"],
        &["XDEL", "s", "2-0"],
        &["XGROUP", "SETID", "s", "g2", "1-2", "ENTRIESREAD", "2"],
        &["XGROUP", "DELCONSUMER", "s", "g", "carol"],
        &["XGROUP", "DESTROY", "s", "gone"],
        &["XTRIM", "s", "MINID", "1-2"],
        &["XSETID", "s", "9-0", "ENTRIESADDED", "20", "MAXDELETEDID", "3-0"],
        &["XADD", "empty", "MAXLEN", "0", "7-0", "x", "y"],
    ];
    for w in writes {
        run(&mut c, w);
    }
    let before = snapshot(&mut c);
    engine.kill9();
    let mut engine = Engine::start(&dir.0, &["--fsync", "always"]);
    let mut c = engine.connect();
    assert_eq!(snapshot(&mut c), before);
    engine.kill9();
    // Cold: with a tiny maxmemory the stream leaves memory and is read back from its last
    // whole put plus its delta records.
    let engine = Engine::start(&dir.0, &["--fsync", "always", "--maxmemory", "1"]);
    let mut c = engine.connect();
    for i in 0..200 {
        run(&mut c, &["SET", &format!("filler{i}"), &"x".repeat(2000)]);
    }
    assert_eq!(snapshot(&mut c), before);
}

const ROUNDS: usize = 8;
const PIPELINE: u64 = 32;

/// Command `n`: XADD of entry `n+1-0`, or every 8th command an XREADGROUP of one new entry.
fn command(n: u64, out: &mut Vec<u8>) {
    if n % 8 == 7 {
        encode(&[b"XREADGROUP", b"GROUP", b"g", b"c", b"COUNT", b"1", b"STREAMS", b"s", b">"], out);
    } else {
        encode(&[b"XADD", b"s", format!("{}-0", n + 1).as_bytes(), b"f", format!("v{n}").as_bytes()], out);
    }
}

/// The ms parts of the entries present.
fn present(c: &mut Resp) -> Vec<u64> {
    let Reply::Array(entries) = c.cmd(&[b"XRANGE", b"s", b"-", b"+"]) else { panic!("XRANGE") };
    entries
        .into_iter()
        .map(|e| match e {
            Reply::Array(mut pair) => match pair.remove(0) {
                Reply::Bulk(Some(id)) => String::from_utf8(id).unwrap().trim_end_matches("-0").parse().unwrap(),
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        })
        .collect()
}

#[test]
fn acknowledged_xadds_survive_kill9() {
    let dir = TempDir::new("streams-kill9-pipelined");
    let (mut acked, mut sent) = (0u64, 0u64);
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..=ROUNDS {
        let mut engine = Engine::start(&dir.0, &["--fsync", "always"]);
        let mut c = engine.connect();
        if round == 0 {
            run(&mut c, &["XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"]);
        }
        let have = present(&mut c);
        let xadds_acked = (0..acked).filter(|n| n % 8 != 7).count();
        assert!(have.len() >= xadds_acked, "round {round}: {} entries, {xadds_acked} acknowledged", have.len());
        // A prefix: entry ids are n + 1 of the XADDs sent, in order, none missing.
        let expected: Vec<u64> = (0..sent).filter(|n| n % 8 != 7).map(|n| n + 1).take(have.len()).collect();
        assert_eq!(have, expected, "round {round}: entries are not a prefix of what was sent");
        if round == ROUNDS {
            break;
        }
        // Commands past the surviving prefix were lost with the crash: they are sent again.
        let survived = have.last().copied().unwrap_or(0);
        sent = (0..sent).find(|n| n % 8 != 7 && n + 1 > survived).unwrap_or(sent);
        acked = acked.min(sent);
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
                    Ok(Reply::Bulk(Some(_)) | Reply::Array(_) | Reply::Bulk(None)) => acked = n + 1,
                    Ok(other) => panic!("round {round}: command {n}: {other:?}"),
                    Err(_) => break 'stream,
                }
            }
        }
        killer.join().unwrap();
        engine.kill9();
        assert!(acked > 0, "round {round}: nothing was acknowledged before the kill");
    }
    eprintln!("{ROUNDS} kills, {acked} acknowledged stream commands, all present");
}

#[test]
fn stream_grows_at_the_cost_of_the_change() {
    let dir = TempDir::new("streams-grow");
    let engine = Engine::start(&dir.0, &["--fsync", "everysec"]);
    let mut c = engine.connect();
    run(&mut c, &["XGROUP", "CREATE", "big", "g", "$", "MKSTREAM"]);
    let start = c.log_bytes();
    let n = 200_000u64;
    let mut done = 0u64;
    while done < n {
        let mut out = Vec::new();
        for i in done..done + 1000 {
            if i % 10 == 9 {
                encode(&[b"XREADGROUP", b"GROUP", b"g", b"c", b"COUNT", b"1", b"STREAMS", b"big", b">"], &mut out);
            } else {
                encode(&[b"XADD", b"big", b"*", b"field", format!("value-{i:09}").as_bytes()], &mut out);
            }
        }
        c.send(&out).unwrap();
        for i in done..done + 1000 {
            match c.read().unwrap() {
                Reply::Bulk(Some(_)) | Reply::Array(_) => {}
                other => panic!("command {i}: {other:?}"),
            }
        }
        done += 1000;
        let per = (c.log_bytes() - start) as f64 / done as f64;
        assert!(per < 150.0, "{per:.1} log bytes per command after {done} commands");
    }
    assert_eq!(c.cmd(&[b"XLEN", b"big"]), Reply::Int((n - n / 10) as i64));
    let per = (c.log_bytes() - start) as f64 / n as f64;
    eprintln!("stream: {n} commands, {per:.1} log bytes per command");
}
