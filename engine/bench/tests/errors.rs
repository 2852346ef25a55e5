//! Failures are counted, reported and end with a non-zero exit, quickly: refused connections,
//! wrong passwords, error replies, servers that never answer, bad flags.

mod support;

use std::time::Duration;

use support::*;

const QUICK: Duration = Duration::from_secs(20);

#[test]
fn refused_connection_exits_non_zero_quickly() {
    let port = free_port().to_string();
    let (out, took) = bench(&["-p", &port, "-t", "2", "-c", "2", "-n", "10", "--hide-histogram"], QUICK);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("connection") && stderr.contains("failed"), "{stderr}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[test]
fn wrong_password_exits_non_zero() {
    let Some(server) = redis(&["--requirepass", "right"]) else { return };
    let port = server.port.to_string();
    let (out, took) = bench(&["-p", &port, "-a", "wrong", "-t", "1", "-c", "2", "-n", "10", "--hide-histogram"], QUICK);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("authentication failed"), "{stderr}");
    assert!(stdout.contains("2 failed connections"), "{stdout}");
    assert!(!stderr.contains("wrong") && !stdout.contains("wrong"), "the password is never printed");
    assert!(took < Duration::from_secs(5));
    // The right password works, also as user:password for the default user.
    let (out, _) = bench(&["-p", &port, "-a", "default:right", "-t", "1", "-c", "1", "-n", "10", "--hide-histogram"], QUICK);
    assert!(out.status.success(), "{}", text(&out).1);
}

#[test]
fn error_replies_are_counted_and_fail_the_run() {
    let Some(server) = redis(&[]) else { return };
    // A user allowed to GET but not to SET: every SET gets -NOPERM.
    assert_eq!(cmd(server.port, &["ACL", "SETUSER", "reader", "on", ">pw", "~*", "+get", "+auth", "+hello"]), "+OK\r\n");
    let dir = temp_dir("errs");
    let json = dir.join("e.json");
    let port = server.port.to_string();
    let (out, took) = bench(
        &["-p", &port, "-a", "reader:pw", "-t", "1", "-c", "2", "-n", "100", "--ratio=1:1", "--pipeline=8", "--hide-histogram", "--json-out-file", json.to_str().unwrap()],
        QUICK,
    );
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("Errors: 100 error replies"), "{stdout}");
    assert!(stderr.contains("NOPERM"), "{stderr}");
    let doc = json_file(&json);
    assert_eq!(doc["ALL STATS"]["Sets"]["Errors"], 100);
    assert_eq!(doc["ALL STATS"]["Gets"]["Errors"], 0);
    assert_eq!(doc["errors"]["error replies"], 100);
    assert!(took < Duration::from_secs(10));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_server_that_never_answers_is_abandoned_after_the_timeout() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let done2 = done.clone();
    let holder = std::thread::spawn(move || {
        // Accept and hold connections without ever replying.
        let mut held = Vec::new();
        listener.set_nonblocking(true).unwrap();
        let until = std::time::Instant::now() + Duration::from_secs(8);
        while std::time::Instant::now() < until && !done2.load(std::sync::atomic::Ordering::SeqCst) {
            if let Ok((s, _)) = listener.accept() {
                held.push(s);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    });
    let (out, took) = bench(&["-p", &port, "-t", "1", "-c", "2", "-n", "10", "--timeout", "2", "--hide-histogram"], QUICK);
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no reply") || stderr.contains("timed out"), "{stderr}");
    assert!(took < Duration::from_secs(6), "took {took:?}");
    holder.join().unwrap();
}

#[test]
fn bad_flags_are_clear_errors() {
    for args in [
        vec!["--ratio=abc"],
        vec!["--key-pattern=X:R"],
        vec!["-P", "memcache_binary"],
        vec!["--key-minimum=10", "--key-maximum=1"],
        vec!["-n", "lots"],
        vec!["--data-size-range=9-1"],
        vec!["--no-such-flag"],
    ] {
        let (out, took) = bench(&args, QUICK);
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
        assert!(took < Duration::from_secs(3));
    }
    let (out, _) = bench(&["ycsb", "run", "--workload", "q"], QUICK);
    assert_eq!(out.status.code(), Some(2));
}
