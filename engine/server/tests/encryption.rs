//! Encryption at rest over the wire: the real binary started with `--encryption-key-file`
//! serves SET/GET, keeps the data across a restart, writes none of it in the clear, and
//! refuses to start with a wrong key or without one (a clear error, exit status not 0).

mod spawned;
use spawned::*;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Runs the server expecting it to refuse to start; returns its stderr.
fn refused(dir: &Path, flags: &[&str]) -> String {
    let mut child = server_command(dir, 0, flags).stderr(Stdio::piped()).spawn().expect("spawn basalt-server");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            assert!(!status.success(), "server started: {err}");
            assert!(!err.contains("panicked"), "{err}");
            return err;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("server with {flags:?} did not refuse to start");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn segments_contain(dir: &Path, needle: &[u8]) -> bool {
    std::fs::read_dir(dir).unwrap().any(|e| {
        let p = e.unwrap().path();
        p.extension().is_some_and(|x| x == "log") && std::fs::read(&p).unwrap().windows(needle.len()).any(|w| w == needle)
    })
}

#[test]
fn encrypted_server_survives_restart_and_refuses_wrong_key() {
    let keys = TempDir::new("enc-keys");
    let dir = TempDir::new("enc-data");
    let key = keys.0.join("at-rest.key");
    std::fs::write(&key, "0f".repeat(32)).unwrap();
    let key = key.to_str().unwrap().to_string();
    let flags = ["--encryption-key-file", key.as_str(), "--fsync", "always"];

    let value = |i: usize| format!("plainvalue-{i}-{}", "v".repeat(128)).into_bytes();
    {
        let engine = Engine::start(&dir.0, &flags);
        let mut c = engine.connect();
        for i in 0..200 {
            let k = format!("plainkey:{i}");
            assert_eq!(c.cmd(&[b"SET", k.as_bytes(), &value(i)]), Reply::Status("OK".into()));
        }
        assert_eq!(c.cmd(&[b"GET", b"plainkey:7"]), Reply::Bulk(Some(value(7))));
        assert_eq!(c.cmd(&[b"DEL", b"plainkey:9"]), Reply::Int(1));
        let Reply::Bulk(Some(info)) = c.cmd(&[b"INFO", b"security"]) else { panic!("INFO failed") };
        let info = String::from_utf8(info).unwrap();
        assert!(info.contains("encryption_at_rest:on"), "{info}");
    }
    assert!(!segments_contain(&dir.0, b"plainvalue"), "a value is in the log in the clear");
    assert!(!segments_contain(&dir.0, b"plainkey"), "a key is in the log in the clear");

    // Restart with the key: everything is back.
    {
        let engine = Engine::start(&dir.0, &flags);
        let mut c = engine.connect();
        for i in 0..200 {
            let k = format!("plainkey:{i}");
            let want = if i == 9 { None } else { Some(value(i)) };
            assert_eq!(c.cmd(&[b"GET", k.as_bytes()]), Reply::Bulk(want), "{k}");
        }
    }

    // A wrong key, no key, and an unreadable key file: clear refusals.
    let wrong = keys.0.join("wrong.key");
    std::fs::write(&wrong, "f0".repeat(32)).unwrap();
    let err = refused(&dir.0, &["--encryption-key-file", wrong.to_str().unwrap()]);
    assert!(err.contains("wrong encryption key"), "{err}");
    let err = refused(&dir.0, &[]);
    assert!(err.contains("is encrypted"), "{err}");
    let short = keys.0.join("short.key");
    std::fs::write(&short, "tooshort").unwrap();
    let err = refused(&dir.0, &["--encryption-key-file", short.to_str().unwrap()]);
    assert!(err.contains("encryption-key-file") && err.contains("32"), "{err}");
    assert!(!err.contains("tooshort"), "the key file's content was printed: {err}");
}
