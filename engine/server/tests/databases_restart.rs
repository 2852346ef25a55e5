//! Recovery scenario: databases survive a restart and a kill -9. Keys written with SELECT,
//! MOVE, SWAPDB and FLUSHDB under `fsync always` are in the same databases after each
//! restart of the binary, five times.

mod spawned;
use spawned::*;

fn get(c: &mut Resp, db: &str, key: &str) -> Reply {
    assert_eq!(c.cmd(&[b"SELECT", db.as_bytes()]), Reply::Status("OK".into()));
    c.cmd(&[b"GET", key.as_bytes()])
}

fn bulk(s: &str) -> Reply {
    Reply::Bulk(Some(s.as_bytes().to_vec()))
}

#[test]
fn databases_survive_restart_and_kill9() {
    let dir = TempDir::new("databases-restart");
    let mut engine = Engine::start(&dir.0, &["--fsync", "always"]);
    let mut c = engine.connect();
    for (db, key, value) in [("0", "k", "zero"), ("1", "k", "one"), ("2", "k", "two"), ("5", "gone", "x")] {
        assert_eq!(c.cmd(&[b"SELECT", db.as_bytes()]), Reply::Status("OK".into()));
        assert_eq!(c.cmd(&[b"SET", key.as_bytes(), value.as_bytes()]), Reply::Status("OK".into()));
    }
    assert_eq!(c.cmd(&[b"FLUSHDB"]), Reply::Status("OK".into())); // database 5
    assert_eq!(c.cmd(&[b"SELECT", b"1"]), Reply::Status("OK".into()));
    assert_eq!(c.cmd(&[b"MOVE", b"k", b"7"]), Reply::Int(1));
    assert_eq!(c.cmd(&[b"SWAPDB", b"0", b"2"]), Reply::Status("OK".into()));
    for round in 0..5 {
        if round % 2 == 0 {
            engine.kill9();
        } else {
            let mut out = Vec::new();
            encode(&[b"SHUTDOWN"], &mut out);
            c.send(&out).expect("send SHUTDOWN");
            assert!(c.read().is_err(), "SHUTDOWN closes the connection");
            assert!(engine.child.wait().expect("wait").success(), "round {round}: SHUTDOWN exits 0");
        }
        engine = Engine::start(&dir.0, &["--fsync", "always"]);
        c = engine.connect();
        assert_eq!(get(&mut c, "0", "k"), bulk("two"), "round {round}");
        assert_eq!(get(&mut c, "2", "k"), bulk("zero"), "round {round}");
        assert_eq!(get(&mut c, "1", "k"), Reply::Bulk(None), "round {round}");
        assert_eq!(get(&mut c, "7", "k"), bulk("one"), "round {round}");
        assert_eq!(get(&mut c, "5", "gone"), Reply::Bulk(None), "round {round}");
        // One more change per round, in a database other than 0.
        assert_eq!(c.cmd(&[b"SELECT", b"4"]), Reply::Status("OK".into()));
        assert_eq!(c.cmd(&[b"INCR", b"rounds"]), Reply::Int(round + 1));
    }
}
