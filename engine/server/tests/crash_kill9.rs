//! Crash test: a writer under `fsync always` streams pipelined SETs while the server is killed
//! with SIGKILL at a random moment, twenty times. After each restart every acknowledged key is
//! there with its value, and the keys present form a prefix of what was sent (one connection's
//! writes reach the log in order, so a later write cannot survive an earlier one).

mod spawned;
use spawned::*;
use std::collections::HashSet;
use std::time::Duration;

const ROUNDS: usize = 20;
const PIPELINE: usize = 16;

fn key(n: u64) -> String {
    format!("crash:{n}")
}

fn value(n: u64) -> Vec<u8> {
    format!("value-{n}-{}", "p".repeat((n % 97) as usize)).into_bytes()
}

#[test]
fn acknowledged_writes_survive_kill9() {
    let dir = TempDir::new("crash");
    let mut acked_upto = 0u64; // keys 0..acked_upto were acknowledged
    let mut sent_upto = 0u64; // keys 0..sent_upto were sent
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    for round in 0..ROUNDS {
        let mut engine = Engine::start(&dir.0, &["--fsync", "always"]);
        let mut c = engine.connect();
        // Every acknowledged key of the last round, and a sample of the older ones.
        let since = acked_upto.saturating_sub(4000);
        let mut check: Vec<u64> = (since..sent_upto).collect();
        for _ in 0..200.min(since) {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            check.push(rng % since);
        }
        let keys: Vec<String> = check.iter().map(|&n| key(n)).collect();
        let got = c.get_many(&keys);
        let mut present = HashSet::new();
        for (&n, v) in check.iter().zip(&got) {
            if let Some(v) = v {
                assert_eq!(v, &value(n), "round {round}: {} has a wrong value", key(n));
                present.insert(n);
            } else {
                assert!(n >= acked_upto, "round {round}: acknowledged key {} lost", key(n));
            }
        }
        // Unacknowledged keys may be there or not, but only as a prefix.
        let survived = (acked_upto..sent_upto).take_while(|n| present.contains(n)).count() as u64;
        for n in acked_upto + survived..sent_upto {
            assert!(!present.contains(&n), "round {round}: {} survived but an earlier write did not", key(n));
        }
        // Continue after whatever survived, so the prefix check holds in the next round.
        acked_upto += survived;
        sent_upto = acked_upto;

        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let kill_after = Duration::from_millis(30 + rng % 250);
        let pid = engine.child.id();
        let killer = std::thread::spawn(move || {
            std::thread::sleep(kill_after);
            let _ = std::process::Command::new("kill").args(["-9", &pid.to_string()]).status();
        });
        'stream: loop {
            let mut out = Vec::new();
            let first = sent_upto;
            for n in first..first + PIPELINE as u64 {
                encode(&[b"SET", key(n).as_bytes(), &value(n)], &mut out);
            }
            if c.send(&out).is_err() {
                break;
            }
            sent_upto = first + PIPELINE as u64;
            for n in first..sent_upto {
                match c.read() {
                    Ok(Reply::Status(s)) if s == "OK" => acked_upto = n + 1,
                    Ok(other) => panic!("round {round}: SET {}: {other:?}", key(n)),
                    Err(_) => break 'stream,
                }
            }
        }
        killer.join().unwrap();
        engine.kill9();
        assert!(acked_upto > 0, "round {round}: nothing was acknowledged before the kill");
    }
    // Final full check of every acknowledged key.
    let engine = Engine::start(&dir.0, &["--fsync", "always"]);
    let mut c = engine.connect();
    let keys: Vec<String> = (0..acked_upto).map(key).collect();
    for (n, v) in c.get_many(&keys).into_iter().enumerate() {
        assert_eq!(v.as_deref(), Some(&value(n as u64)[..]), "acknowledged key {} lost", key(n as u64));
    }
    eprintln!("{ROUNDS} kills, {acked_upto} acknowledged keys, all present");
}
