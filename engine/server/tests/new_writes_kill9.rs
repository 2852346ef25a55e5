//! Recovery scenario: the write commands added for Redis' suite (sorted-set pops, range
//! removals and *STORE, list edits and LMPOP, set algebra *STORE and SMOVE, HINCRBYFLOAT,
//! SETBIT, COPY, BITOP, RESTORE) are in the log before they are acknowledged: under `fsync always` a kill -9
//! right after them loses nothing, and what reads back equals what was read before the kill.

mod spawned;
use spawned::*;

/// Reads that show every key the writes touched, in a fixed order.
const READS: &[&[&str]] = &[
    &["ZRANGE", "z", "0", "-1", "WITHSCORES"],
    &["ZRANGE", "zs", "0", "-1", "WITHSCORES"],
    &["ZRANGE", "zu", "0", "-1", "WITHSCORES"],
    &["LRANGE", "l", "0", "-1"],
    &["LRANGE", "l2", "0", "-1"],
    &["SMISMEMBER", "s", "1", "2", "3", "4", "5"],
    &["SMISMEMBER", "sd", "1", "2", "3", "4", "5"],
    &["SMISMEMBER", "s2", "1", "2", "3", "4", "5"],
    &["HGET", "h", "f"],
    &["GET", "bits"],
    &["GET", "copy"],
    &["PTTL", "copy"],
    &["EXISTS", "gone"],
    &["GET", "bo"],
    &["LRANGE", "restored", "0", "-1"],
    &["PTTL", "restored"],
];

fn snapshot(c: &mut Resp) -> Vec<Reply> {
    READS.iter().map(|r| c.cmd(&r.iter().map(|a| a.as_bytes()).collect::<Vec<_>>())).collect()
}

#[test]
fn new_write_commands_survive_kill9() {
    let dir = TempDir::new("new-writes-kill9");
    let mut engine = Engine::start(&dir.0, &["--fsync", "always"]);
    let mut c = engine.connect();
    let writes: &[&[&str]] = &[
        &["ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e", "6", "f"],
        &["ZPOPMIN", "z"],
        &["ZPOPMAX", "z"],
        &["ZMPOP", "1", "z", "MIN"],
        &["ZREMRANGEBYSCORE", "z", "5", "5"],
        &["ZRANGESTORE", "zs", "z", "0", "-1"],
        &["ZADD", "other", "10", "c", "7", "x"],
        &["ZUNIONSTORE", "zu", "2", "z", "other", "WEIGHTS", "2", "1"],
        &["ZINTERSTORE", "gone", "2", "z", "nokey"],
        &["RPUSH", "l", "a", "b", "c", "b", "d"],
        &["LSET", "l", "0", "A"],
        &["LINSERT", "l", "AFTER", "c", "C"],
        &["LREM", "l", "1", "b"],
        &["LTRIM", "l", "0", "3"],
        &["RPUSHX", "l", "z"],
        &["LMPOP", "1", "l", "RIGHT", "COUNT", "1"],
        &["SADD", "s", "1", "2", "3"],
        &["SADD", "s2", "3", "4"],
        &["SMOVE", "s", "s2", "1"],
        &["SDIFFSTORE", "sd", "s", "s2"],
        &["SUNIONSTORE", "s2", "s2", "s"],
        &["HINCRBYFLOAT", "h", "f", "2.5"],
        &["SETBIT", "bits", "9", "1"],
        &["SET", "src", "v", "PX", "600000"],
        &["COPY", "src", "copy"],
        &["COPY", "l", "l2"],
        &["SET", "b2", "xyz"],
        &["BITOP", "XOR", "bo", "bits", "b2"],
    ];
    for w in writes {
        let reply = c.cmd(&w.iter().map(|a| a.as_bytes()).collect::<Vec<_>>());
        assert!(!matches!(reply, Reply::Error(_)), "{w:?}: {reply:?}");
    }
    let Reply::Bulk(Some(payload)) = c.cmd(&[b"DUMP", b"l"]) else { panic!("DUMP l") };
    assert_eq!(c.cmd(&[b"RESTORE", b"restored", b"600000", &payload]), Reply::Status("OK".into()));
    let before = snapshot(&mut c);
    engine.kill9();
    let mut engine = Engine::start(&dir.0, &["--fsync", "always"]);
    let mut c = engine.connect();
    let after = snapshot(&mut c);
    for (i, (b, a)) in before.iter().zip(&after).enumerate() {
        // The TTL runs on between the two reads: compare it loosely.
        if READS[i][0] == "PTTL" {
            assert!(matches!((b, a), (Reply::Int(x), Reply::Int(y)) if *y > 0 && y <= x), "{b:?} {a:?}");
        } else {
            assert_eq!(b, a, "{:?}", READS[i]);
        }
    }
    engine.kill9();
}
