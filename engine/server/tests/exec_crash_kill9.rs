//! Crash test: an EXEC is all or nothing across kill -9. A writer under `fsync always` runs
//! transactions of ten SETs (in two databases) while the server is killed at a random moment,
//! ten times. After each restart every acknowledged transaction is there whole, and of any
//! other transaction either all ten keys are there or none.

mod spawned;
use spawned::*;
use std::time::Duration;

const ROUNDS: usize = 10;
const KEYS_PER_TX: u64 = 10;

fn key(tx: u64, i: u64) -> String {
    format!("tx:{tx}:{i}")
}

/// How many of transaction `tx`'s keys are present (half in database 0, half in 3).
fn present(c: &mut Resp, tx: u64) -> u64 {
    let mut n = 0;
    for (db, range) in [(&b"0"[..], 0..KEYS_PER_TX / 2), (&b"3"[..], KEYS_PER_TX / 2..KEYS_PER_TX)] {
        assert_eq!(c.cmd(&[b"SELECT", db]), Reply::Status("OK".into()));
        let keys: Vec<String> = range.map(|i| key(tx, i)).collect();
        n += c.get_many(&keys).iter().filter(|v| v.as_deref() == Some(format!("{tx}").as_bytes())).count() as u64;
    }
    n
}

#[test]
fn exec_is_all_or_nothing_across_kill9() {
    let dir = TempDir::new("exec-crash");
    let mut acked = 0u64; // transactions 0..acked were acknowledged
    let mut next = 0u64; // transactions 0..next were sent
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..=ROUNDS {
        let mut engine = Engine::start(&dir.0, &["--fsync", "always"]);
        let mut c = engine.connect();
        // Every transaction sent so far is whole or absent; acknowledged ones are there.
        let mut survived = acked;
        for tx in acked.saturating_sub(20)..next {
            let n = present(&mut c, tx);
            assert!(n == 0 || n == KEYS_PER_TX, "round {round}: transaction {tx} is torn: {n} of {KEYS_PER_TX} keys");
            if tx < acked {
                assert_eq!(n, KEYS_PER_TX, "round {round}: acknowledged transaction {tx} lost");
            } else if n == KEYS_PER_TX {
                survived = tx + 1;
            }
        }
        if round == ROUNDS {
            eprintln!("{ROUNDS} kills, {acked} acknowledged transactions, none torn");
            return;
        }
        acked = survived;
        next = acked;
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let kill_after = Duration::from_millis(40 + rng % 200);
        let pid = engine.child.id();
        let killer = std::thread::spawn(move || {
            std::thread::sleep(kill_after);
            let _ = std::process::Command::new("kill").args(["-9", &pid.to_string()]).status();
        });
        'stream: loop {
            let tx = next;
            let mut out = Vec::new();
            encode(&[b"SELECT", b"0"], &mut out);
            encode(&[b"MULTI"], &mut out);
            for i in 0..KEYS_PER_TX {
                if i == KEYS_PER_TX / 2 {
                    encode(&[b"SELECT", b"3"], &mut out);
                }
                encode(&[b"SET", key(tx, i).as_bytes(), format!("{tx}").as_bytes()], &mut out);
            }
            encode(&[b"EXEC"], &mut out);
            if c.send(&out).is_err() {
                break;
            }
            next = tx + 1;
            // SELECT, MULTI, queued replies, then EXEC's array.
            for _ in 0..(2 + KEYS_PER_TX + 1) {
                if c.read().is_err() {
                    break 'stream;
                }
            }
            match c.read() {
                Ok(Reply::Array(items)) if items.len() as u64 == KEYS_PER_TX + 1 => acked = tx + 1,
                Ok(other) => panic!("round {round}: EXEC of {tx}: {other:?}"),
                Err(_) => break 'stream,
            }
        }
        killer.join().unwrap();
        engine.kill9();
        assert!(acked > 0, "round {round}: nothing was acknowledged before the kill");
    }
}
