//! `basalt-bench canonical` against basalt-server's memcached port and Debian's memcached:
//! the requests it reports are the ones the servers counted, reads ask only for keys that
//! exist (every key asked for comes back), and the mix is 1:4:8:64.

mod support;

use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::*;

const LIMIT: Duration = Duration::from_secs(60);

fn canonical(port: u16, extra: &[&str], json: &std::path::Path) -> serde_json::Value {
    let port = port.to_string();
    let mut args = vec!["canonical", "-s", "127.0.0.1", "-p", &port, "--hide-histogram", "--json-out-file", json.to_str().unwrap()];
    args.extend_from_slice(extra);
    let (out, _) = bench(&args, LIMIT);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    json_file(json)
}

fn commands(doc: &serde_json::Value, name: &str) -> u64 {
    doc["canonical"]["memcached commands"][name].as_u64().unwrap()
}

#[test]
fn canonical_counts_match_basalt_commandstats_and_every_read_key_exists() {
    let mc_port = free_port();
    let Some(server) = basalt_with(&["--memcached-port", &mc_port.to_string()]) else { return };
    let dir = temp_dir("canonical-basalt");
    let json = dir.join("c.json");
    let s0 = commandstats(server.port);
    let load = canonical(mc_port, &["--load", "--keys=2000", "-c", "8", "-t", "2"], &json);
    assert_eq!(load["ALL STATS"]["Inserts"]["Count"], 2000);
    let s1 = commandstats(server.port);
    assert_eq!(delta(&s0, &s1, "memcached|set"), 2000);
    assert_eq!(int(server.port, &["DBSIZE"]), 2000);

    let run = canonical(mc_port, &["--keys=2000", "-c", "8", "-t", "2", "-n", "1000"], &json);
    let s2 = commandstats(server.port);
    for (command, row) in [("get", "Reads"), ("set", "Updates"), ("add", "Inserts"), ("delete", "Deletes")] {
        assert_eq!(delta(&s1, &s2, &format!("memcached|{command}")), commands(&run, command), "{command}");
        assert_eq!(run["ALL STATS"][row]["Count"].as_u64().unwrap(), commands(&run, command), "{row}");
    }
    assert_eq!(run["ALL STATS"]["Totals"]["Count"], 8000);
    let asked = run["canonical"]["read keys asked"].as_u64().unwrap();
    assert_eq!(run["canonical"]["read keys returned"].as_u64().unwrap(), asked);
    // 1:4:8:64 of 8000 requests, batches of 1-16 keys (8.5 on average).
    let reads = commands(&run, "get") as f64;
    assert!((reads / 8000.0 - 64.0 / 77.0).abs() < 0.03, "reads {reads}");
    assert!((commands(&run, "add") as f64 / 8000.0 - 8.0 / 77.0).abs() < 0.02);
    assert!((asked as f64 / reads - 8.5).abs() < 0.5, "keys per read {}", asked as f64 / reads);
    // Inserts minus deletes is what the keyspace grew by.
    assert_eq!(int(server.port, &["DBSIZE"]), 2000 + commands(&run, "add") - commands(&run, "delete"));
    assert_eq!(run["ALL STATS"]["Totals"]["Errors"].as_u64().unwrap_or(0), 0);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn canonical_logs_in_with_memcached_ascii_auth() {
    let mc_port = free_port();
    let Some(_server) = basalt_with(&["--memcached-port", &mc_port.to_string(), "--requirepass", "s3cret"]) else { return };
    let dir = temp_dir("canonical-auth");
    let json = dir.join("c.json");
    let run = canonical(mc_port, &["-a", "default:s3cret", "-c", "2", "-t", "1", "-n", "50", "--keys=20"], &json);
    assert_eq!(run["ALL STATS"]["Totals"]["Count"], 100);
    let port = mc_port.to_string();
    let (out, _) = bench(&["canonical", "-s", "127.0.0.1", "-p", &port, "-a", "default:wrong", "-c", "1", "-n", "5", "--hide-histogram"], LIMIT);
    assert!(!out.status.success());
    assert!(text(&out).1.contains("authentication failed"), "{}", text(&out).1);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn canonical_runs_against_debian_memcached() {
    if !on_path("memcached") {
        eprintln!("SKIP: memcached is not on PATH (apt-get install memcached)");
        return;
    }
    let port = free_port();
    let mut child = Command::new("memcached")
        .args(["-p", &port.to_string(), "-l", "127.0.0.1", "-U", "0", "-m", "64", "-u", "nobody"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn memcached");
    let deadline = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "memcached did not listen on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
    let dir = temp_dir("canonical-memcached");
    let json = dir.join("c.json");
    canonical(port, &["--load", "--keys=1000", "-c", "4", "-t", "1"], &json);
    let run = canonical(port, &["--keys=1000", "-c", "4", "-t", "1", "-n", "500"], &json);
    let asked = run["canonical"]["read keys asked"].as_u64().unwrap();
    assert!(asked > 0);
    assert_eq!(run["canonical"]["read keys returned"].as_u64().unwrap(), asked);
    assert_eq!(run["ALL STATS"]["Totals"]["Count"], 2000);
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(dir);
}
