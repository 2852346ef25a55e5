//! Replication (issue 15) with real processes on loopback: a full copy taken while the primary
//! takes writes, then the stream; READONLY; ROLE and INFO at the wire; a partial resync after
//! a replica's kill -9 (offsets shown, no full copy); a full copy once the replica is past the
//! backlog; `replication-mode sync` refusing writes without a replica and keeping every
//! acknowledged write through a kill -9 of the primary (`fsync always`); WAIT; promotion with
//! REPLICAOF NO ONE and the old primary rejoining as a replica of the new one.

mod spawned;
use spawned::*;
use std::time::{Duration, Instant};

fn info(c: &mut Resp, field: &str) -> String {
    c.info_field("replication", field).unwrap_or_default()
}

fn info_u64(c: &mut Resp, field: &str) -> u64 {
    info(c, field).parse().unwrap_or(0)
}

/// Waits until the replica's offset reaches the primary's and its link is up.
fn wait_in_sync(primary: &mut Resp, replica: &mut Resp) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let target = info_u64(primary, "master_repl_offset");
        let at = info_u64(replica, "slave_repl_offset");
        if at == target && info(replica, "master_link_status") == "up" {
            return at;
        }
        assert!(Instant::now() < deadline, "replica stuck at {at} of {target}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// SETs of `key:{n}` for n in `range`, pipelined; returns how many were acknowledged with +OK.
fn write_keys(c: &mut Resp, prefix: &str, range: std::ops::Range<u64>) -> Vec<Reply> {
    let mut replies = Vec::new();
    let keys: Vec<u64> = range.collect();
    for chunk in keys.chunks(64) {
        let mut out = Vec::new();
        for n in chunk {
            encode(&[b"SET", format!("{prefix}:{n}").as_bytes(), value(n).as_bytes()], &mut out);
        }
        c.send(&out).unwrap();
        for _ in chunk {
            replies.push(c.read().unwrap());
        }
    }
    replies
}

fn value(n: &u64) -> String {
    format!("v{n}-{}", "x".repeat((*n % 50) as usize))
}

fn check_keys(c: &mut Resp, prefix: &str, range: std::ops::Range<u64>) {
    let keys: Vec<String> = range.clone().map(|n| format!("{prefix}:{n}")).collect();
    let got = c.get_many(&keys);
    for (n, v) in range.zip(got) {
        assert_eq!(v.as_deref(), Some(value(&n).as_bytes()), "{prefix}:{n}");
    }
}

fn replica_of(dir: &std::path::Path, primary: &Engine, flags: &[&str]) -> Engine {
    let target = format!("127.0.0.1 {}", primary.port);
    let mut all = vec!["--replicaof", target.as_str()];
    all.extend_from_slice(flags);
    Engine::start(dir, &all)
}

#[test]
fn full_copy_under_writes_then_stream_readonly_role_info() {
    let (pd, rd) = (TempDir::new("repl-p"), TempDir::new("repl-r"));
    let primary = Engine::start(&pd.0, &[]);
    let mut p = primary.connect();
    write_keys(&mut p, "before", 0..20_000);
    // The replica starts while another connection keeps writing.
    let port = primary.port;
    let writer = std::thread::spawn(move || {
        let mut w = Resp::connect(port).unwrap();
        write_keys(&mut w, "during", 0..20_000)
    });
    let replica = replica_of(&rd.0, &primary, &[]);
    let mut r = replica.connect();
    assert!(writer.join().unwrap().iter().all(|x| *x == Reply::Status("OK".into())));
    write_keys(&mut p, "after", 0..2_000);
    let offset = wait_in_sync(&mut p, &mut r);
    eprintln!("replica in sync at offset {offset}");
    check_keys(&mut r, "before", 0..20_000);
    check_keys(&mut r, "during", 0..20_000);
    check_keys(&mut r, "after", 0..2_000);
    assert_eq!(r.cmd(&[b"DBSIZE"]), p.cmd(&[b"DBSIZE"]));

    // Read-only, with Redis' words; also inside MULTI (EXECABORT) and for scripts.
    assert_eq!(r.cmd(&[b"SET", b"k", b"v"]), Reply::Error("READONLY You can't write against a read only replica.".into()));
    assert_eq!(r.cmd(&[b"MULTI"]), Reply::Status("OK".into()));
    assert!(matches!(r.cmd(&[b"DEL", b"before:1"]), Reply::Error(e) if e.starts_with("READONLY")));
    assert!(matches!(r.cmd(&[b"EXEC"]), Reply::Error(e) if e.starts_with("EXECABORT")));
    assert!(matches!(r.cmd(&[b"EVAL", b"return redis.call('set','x','1')", b"0"]), Reply::Error(e) if e.contains("READONLY")));

    // ROLE, exact bytes on the replica's side; the primary lists the replica with its offset.
    let mut raw = Vec::new();
    encode(&[b"ROLE"], &mut raw);
    r.send(&raw).unwrap();
    let expected = format!(
        "*5\r\n$5\r\nslave\r\n$9\r\n127.0.0.1\r\n:{}\r\n$9\r\nconnected\r\n:{offset}\r\n",
        primary.port
    );
    let mut got = vec![0u8; expected.len()];
    std::io::Read::read_exact(&mut r.writer, &mut got).unwrap();
    assert_eq!(String::from_utf8_lossy(&got), expected);
    let Reply::Array(role) = p.cmd(&[b"ROLE"]) else { panic!("ROLE") };
    assert_eq!(role[0], Reply::Bulk(Some(b"master".to_vec())));
    assert_eq!(role[1], Reply::Int(offset as i64));
    let Reply::Array(replicas) = &role[2] else { panic!("ROLE replicas") };
    assert_eq!(replicas.len(), 1);
    assert_eq!(info(&mut p, "role"), "master");
    assert_eq!(info(&mut p, "connected_slaves"), "1");
    let slave0 = info(&mut p, "slave0");
    assert!(slave0.starts_with("ip=127.0.0.1,port=") && slave0.contains(",state=online,offset=") && slave0.contains(",lag_bytes=0"), "{slave0}");
    assert_eq!(info(&mut r, "role"), "slave");
    assert_eq!(info(&mut r, "master_port"), primary.port.to_string());
    assert_eq!(info(&mut r, "master_replid"), info(&mut p, "master_replid"));
    assert_eq!(info(&mut p, "sync_full"), "1");
}

#[test]
fn replica_restart_resumes_from_its_offset_and_past_the_backlog_copies_again() {
    let (pd, rd) = (TempDir::new("repl-p"), TempDir::new("repl-r"));
    let primary = Engine::start(&pd.0, &["--repl-backlog-size", "256kb"]);
    let mut p = primary.connect();
    write_keys(&mut p, "a", 0..1_000);
    let mut replica = replica_of(&rd.0, &primary, &["--fsync", "always"]);
    let mut r = replica.connect();
    wait_in_sync(&mut p, &mut r);
    assert_eq!(info(&mut p, "sync_full"), "1");

    // A short break: kill -9, writes meanwhile (well inside the backlog), restart.
    let before = info_u64(&mut r, "slave_repl_offset");
    replica.kill9();
    write_keys(&mut p, "b", 0..500);
    let primary_at = info_u64(&mut p, "master_repl_offset");
    let mut replica = replica_of(&rd.0, &primary, &["--fsync", "always"]);
    let mut r = replica.connect();
    let after = wait_in_sync(&mut p, &mut r);
    eprintln!("partial resync: replica held offset {before}, primary at {primary_at}, caught up at {after}");
    assert_eq!(after, primary_at);
    assert_eq!(info(&mut p, "sync_full"), "1", "a short break must not need a full copy");
    assert_eq!(info(&mut p, "sync_partial_ok"), "1");
    check_keys(&mut r, "a", 0..1_000);
    check_keys(&mut r, "b", 0..500);

    // A long break: more than the backlog holds is written meanwhile: a full copy.
    replica.kill9();
    write_keys(&mut p, "c", 0..8_000);
    let first = info_u64(&mut p, "repl_backlog_first_byte_offset");
    assert!(first > after, "the backlog ({first}..) no longer holds offset {after}");
    let _replica = replica_of(&rd.0, &primary, &["--fsync", "always"]);
    let mut r = _replica.connect();
    let caught = wait_in_sync(&mut p, &mut r);
    eprintln!("past the backlog: replica held {after}, backlog starts at {first}: full copy, caught up at {caught}");
    assert_eq!(info(&mut p, "sync_full"), "2");
    check_keys(&mut r, "a", 0..1_000);
    check_keys(&mut r, "b", 0..500);
    check_keys(&mut r, "c", 0..8_000);
    assert_eq!(r.cmd(&[b"DBSIZE"]), p.cmd(&[b"DBSIZE"]));
}

#[test]
fn sync_mode_refuses_writes_without_a_replica_and_wait_counts_replicas() {
    let (pd, rd) = (TempDir::new("repl-p"), TempDir::new("repl-r"));
    let primary = Engine::start(&pd.0, &["--replication-mode", "sync", "--replication-sync-timeout-ms", "500"]);
    let mut p = primary.connect();
    assert_eq!(p.cmd(&[b"SET", b"k", b"v"]), Reply::Error("NOREPLICAS Not enough good replicas to write.".into()));
    assert_eq!(p.cmd(&[b"GET", b"k"]), Reply::Bulk(None));
    assert_eq!(p.cmd(&[b"WAIT", b"1", b"100"]), Reply::Int(0));
    let mut replica = replica_of(&rd.0, &primary, &[]);
    let mut r = replica.connect();
    wait_in_sync(&mut p, &mut r);
    let deadline = Instant::now() + Duration::from_secs(10);
    while info(&mut p, "good_slaves") != "1" {
        assert!(Instant::now() < deadline, "replica never acknowledged");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(p.cmd(&[b"SET", b"k", b"v"]), Reply::Status("OK".into()));
    // Acknowledged in sync mode: the replica has it already.
    assert_eq!(r.cmd(&[b"GET", b"k"]), Reply::Bulk(Some(b"v".to_vec())));
    assert_eq!(p.cmd(&[b"WAIT", b"1", b"1000"]), Reply::Int(1));
    let started = Instant::now();
    assert_eq!(p.cmd(&[b"WAIT", b"2", b"200"]), Reply::Int(1));
    assert!(started.elapsed() >= Duration::from_millis(190));
    assert!(matches!(r.cmd(&[b"WAIT", b"1", b"10"]), Reply::Error(_)));
    // The replica dies: writes fail within the timeout, and then are refused at once.
    replica.kill9();
    let started = Instant::now();
    let reply = p.cmd(&[b"SET", b"k2", b"v2"]);
    assert!(matches!(&reply, Reply::Error(e) if e.starts_with("NOREPLICAS")), "{reply:?}");
    assert!(started.elapsed() < Duration::from_secs(3));
    // Once no replica acknowledged for the window (at least 2 s), refused before running.
    std::thread::sleep(Duration::from_millis(2_500));
    let started = Instant::now();
    assert_eq!(p.cmd(&[b"SET", b"k3", b"v3"]), Reply::Error("NOREPLICAS Not enough good replicas to write.".into()));
    assert!(started.elapsed() < Duration::from_millis(300));
    // Explicit fence, and async mode acknowledges at once.
    assert_eq!(p.cmd(&[b"CONFIG", b"SET", b"replication-mode", b"async"]), Reply::Status("OK".into()));
    assert_eq!(p.cmd(&[b"SET", b"k4", b"v4"]), Reply::Status("OK".into()));
    // Redis' min-replicas-to-write fences async mode the same way.
    assert_eq!(p.cmd(&[b"CONFIG", b"SET", b"min-replicas-to-write", b"1", b"min-replicas-max-lag", b"1"]), Reply::Status("OK".into()));
    assert_eq!(p.cmd(&[b"SET", b"k4", b"v4"]), Reply::Error("NOREPLICAS Not enough good replicas to write.".into()));
    assert_eq!(p.cmd(&[b"CONFIG", b"SET", b"min-replicas-to-write", b"0"]), Reply::Status("OK".into()));
    assert_eq!(p.cmd(&[b"CONFIG", b"SET", b"read-only", b"yes"]), Reply::Status("OK".into()));
    assert!(matches!(p.cmd(&[b"SET", b"k5", b"v5"]), Reply::Error(e) if e.starts_with("READONLY")));
    let Reply::Array(got) = p.cmd(&[b"CONFIG", b"GET", b"read-only"]) else { panic!() };
    assert_eq!(got[1], Reply::Bulk(Some(b"yes".to_vec())));
}

#[test]
fn sync_acknowledged_writes_survive_primary_kill9_and_old_primary_rejoins() {
    let (pd, rd) = (TempDir::new("repl-p"), TempDir::new("repl-r"));
    let sync = ["--fsync", "always", "--replication-mode", "sync", "--replication-sync-timeout-ms", "2000"];
    let mut primary = Engine::start(&pd.0, &sync);
    let replica = replica_of(&rd.0, &primary, &["--fsync", "always"]);
    let (mut p, mut r) = (primary.connect(), replica.connect());
    wait_in_sync(&mut p, &mut r);
    let deadline = Instant::now() + Duration::from_secs(10);
    while info(&mut p, "good_slaves") != "1" {
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(20));
    }
    // A writer streams SETs; the primary is killed while it writes.
    let port = primary.port;
    let writer = std::thread::spawn(move || {
        let mut w = Resp::connect(port).unwrap();
        let mut acked = 0u64;
        for n in 0..1_000_000u64 {
            let mut out = Vec::new();
            encode(&[b"SET", format!("ack:{n}").as_bytes(), value(&n).as_bytes()], &mut out);
            if w.send(&out).is_err() {
                break;
            }
            match w.read() {
                Ok(Reply::Status(s)) if s == "OK" => acked = n + 1,
                _ => break,
            }
        }
        acked
    });
    std::thread::sleep(Duration::from_millis(1500));
    primary.kill9();
    let acked = writer.join().unwrap();
    assert!(acked > 50, "only {acked} writes were acknowledged");
    // Promote the replica: every acknowledged write is there.
    assert_eq!(r.cmd(&[b"REPLICAOF", b"NO", b"ONE"]), Reply::Status("OK".into()));
    assert_eq!(info(&mut r, "role"), "master");
    check_keys(&mut r, "ack", 0..acked);
    eprintln!("{acked} acknowledged writes, all on the promoted replica");
    assert_eq!(r.cmd(&[b"CONFIG", b"SET", b"replication-mode", b"async"]), Reply::Status("OK".into()));
    assert_eq!(r.cmd(&[b"SET", b"new", b"primary"]), Reply::Status("OK".into()));

    // The old primary comes back as a replica of the new one and converges on its data.
    let old = replica_of(&pd.0, &replica, &["--fsync", "always"]);
    let mut o = old.connect();
    wait_in_sync(&mut r, &mut o);
    assert_eq!(o.cmd(&[b"GET", b"new"]), Reply::Bulk(Some(b"primary".to_vec())));
    check_keys(&mut o, "ack", 0..acked);
    assert_eq!(o.cmd(&[b"DBSIZE"]), r.cmd(&[b"DBSIZE"]));
    assert!(matches!(o.cmd(&[b"SET", b"x", b"y"]), Reply::Error(e) if e.starts_with("READONLY")));
    // Streaming goes on after the rejoin.
    write_keys(&mut r, "later", 0..100);
    wait_in_sync(&mut r, &mut o);
    check_keys(&mut o, "later", 0..100);
}

#[test]
fn replicaof_at_run_time_and_promotion_keep_history_for_siblings() {
    let (ad, bd, cd) = (TempDir::new("repl-a"), TempDir::new("repl-b"), TempDir::new("repl-c"));
    let a = Engine::start(&ad.0, &[]);
    let b = Engine::start(&bd.0, &[]);
    let c = Engine::start(&cd.0, &[]);
    let (mut ca, mut cb, mut cc) = (a.connect(), b.connect(), c.connect());
    write_keys(&mut ca, "h", 0..300);
    let a_port = a.port.to_string();
    assert_eq!(cb.cmd(&[b"REPLICAOF", b"127.0.0.1", a_port.as_bytes()]), Reply::Status("OK".into()));
    assert_eq!(cc.cmd(&[b"SLAVEOF", b"127.0.0.1", a_port.as_bytes()]), Reply::Status("OK".into()));
    wait_in_sync(&mut ca, &mut cb);
    wait_in_sync(&mut ca, &mut cc);
    // B is promoted; C follows B and continues without a full copy (B's replid2 is A's id).
    assert_eq!(cb.cmd(&[b"REPLICAOF", b"NO", b"ONE"]), Reply::Status("OK".into()));
    assert_eq!(info(&mut cb, "master_replid2"), info(&mut ca, "master_replid"));
    let b_port = b.port.to_string();
    assert_eq!(cc.cmd(&[b"REPLICAOF", b"127.0.0.1", b_port.as_bytes()]), Reply::Status("OK".into()));
    write_keys(&mut cb, "after", 0..100);
    wait_in_sync(&mut cb, &mut cc);
    assert_eq!(info(&mut cb, "sync_full"), "0");
    assert_eq!(info(&mut cb, "sync_partial_ok"), "1");
    check_keys(&mut cc, "h", 0..300);
    check_keys(&mut cc, "after", 0..100);
    assert!(matches!(cb.cmd(&[b"REPLICAOF", b"127.0.0.1", b_port.as_bytes()]), Reply::Error(e) if e.contains("myself")));
}

/// Every kind of record (strings, collection deltas and whole values, MULTI/EXEC, EVAL, MOVE,
/// SWAPDB, expiry, four databases), part before and part after the replica attaches: the
/// replica ends with the same data, key by key.
#[test]
fn every_record_kind_replicates_identically() {
    let (pd, rd) = (TempDir::new("repl-p"), TempDir::new("repl-r"));
    let primary = Engine::start(&pd.0, &[]);
    let mut p = primary.connect();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let mut mixed = |p: &mut Resp, count: u64| {
        for i in 0..count {
            let db = next(4).to_string();
            let k = format!("k{}", next(200));
            let (h, l, s, z) = (format!("h{k}"), format!("l{k}"), format!("s{k}"), format!("z{k}"));
            let (f, m, n) = (format!("f{}", next(20)), format!("m{}", next(30)), i.to_string());
            let other = next(4).to_string();
            let cmds: Vec<Vec<&[u8]>> = match next(13) {
                0 => vec![vec![b"SET", k.as_bytes(), n.as_bytes()]],
                1 => vec![vec![b"HSET", h.as_bytes(), f.as_bytes(), n.as_bytes()]],
                2 => vec![vec![b"HDEL", h.as_bytes(), f.as_bytes()]],
                3 => vec![vec![b"LPUSH", l.as_bytes(), n.as_bytes()], vec![b"RPUSH", l.as_bytes(), f.as_bytes()]],
                4 => vec![vec![b"LPOP", l.as_bytes()]],
                5 => vec![vec![b"SADD", s.as_bytes(), m.as_bytes()]],
                6 => vec![vec![b"SREM", s.as_bytes(), m.as_bytes()]],
                7 => vec![vec![b"ZADD", z.as_bytes(), n.as_bytes(), m.as_bytes()]],
                8 => vec![vec![b"ZINCRBY", z.as_bytes(), b"1.5", m.as_bytes()]],
                9 => vec![vec![b"DEL", k.as_bytes()], vec![b"PEXPIRE", h.as_bytes(), b"100000"]],
                10 => vec![vec![b"MULTI"], vec![b"INCR", b"ctr"], vec![b"HINCRBY", b"hctr", b"x", b"2"], vec![b"EXEC"]],
                11 => vec![vec![b"MOVE", k.as_bytes(), other.as_bytes()]],
                _ if next(50) == 0 => vec![vec![b"SWAPDB", db.as_bytes(), other.as_bytes()]],
                _ => vec![vec![b"EVAL", b"redis.call('set', KEYS[1], ARGV[1]); return redis.call('sadd', 'lua', ARGV[1])", b"1", k.as_bytes(), n.as_bytes()]],
            };
            p.cmd(&[b"SELECT", db.as_bytes()]);
            for c in cmds {
                p.cmd(&c);
            }
        }
    };
    mixed(&mut p, 3_000);
    let replica = replica_of(&rd.0, &primary, &[]);
    let mut r = replica.connect();
    mixed(&mut p, 3_000);
    wait_in_sync(&mut p, &mut r);
    let mut compared = 0;
    for db in ["0", "1", "2", "3"] {
        p.cmd(&[b"SELECT", db.as_bytes()]);
        r.cmd(&[b"SELECT", db.as_bytes()]);
        let keys = |c: &mut Resp| match c.cmd(&[b"KEYS", b"*"]) {
            Reply::Array(mut k) => {
                k.sort_by_key(|x| format!("{x:?}"));
                k
            }
            other => panic!("KEYS: {other:?}"),
        };
        let names = keys(&mut p);
        assert_eq!(names, keys(&mut r), "keys of database {db}");
        for name in names {
            let Reply::Bulk(Some(key)) = name else { panic!() };
            let content = |c: &mut Resp| {
                let Reply::Status(kind) = c.cmd(&[b"TYPE", &key]) else { panic!() };
                let read: Vec<&[u8]> = match kind.as_str() {
                    "string" => vec![b"GET", &key],
                    "hash" => vec![b"HGETALL", &key],
                    "list" => vec![b"LRANGE", &key, b"0", b"-1"],
                    "set" => vec![b"SMEMBERS", &key],
                    _ => vec![b"ZRANGE", &key, b"0", b"-1", b"WITHSCORES"],
                };
                let mut items = match c.cmd(&read) {
                    Reply::Array(items) if kind == "hash" => items.chunks(2).map(|p| format!("{p:?}")).collect::<Vec<_>>(),
                    Reply::Array(items) => items.iter().map(|i| format!("{i:?}")).collect(),
                    one => vec![format!("{one:?}")],
                };
                if kind == "hash" || kind == "set" {
                    items.sort();
                }
                (kind, items)
            };
            assert_eq!(content(&mut p), content(&mut r), "{} in database {db}", String::from_utf8_lossy(&key));
            compared += 1;
        }
    }
    eprintln!("{compared} keys identical on primary and replica");
    assert!(compared > 500);
}
