//! The seed commands against a real redis-server: the SET/GET counts basalt-bench
//! reports equal the server's `INFO commandstats` deltas, and the JSON agrees with the table.

mod support;

use std::time::Duration;

use support::*;

const LIMIT: Duration = Duration::from_secs(60);

fn seed_command(port: u16, auth: &str, ratio: &str, json: &str, extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = [
        "-s", "127.0.0.1", "-p", &port.to_string(), "-a", auth, "-c", "4", "-t", "2", "-n", "1000",
        "--random-data", "--randomize", "--distinct-client-seed", "-d", "128", "--key-maximum=128000",
        "--key-minimum=1", "--key-prefix=", "--key-pattern=R:R", &format!("--ratio={ratio}"),
        "--json-out-file", json,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn run_seed(port: u16, ratio: &str, extra: &[&str]) -> (serde_json::Value, String) {
    let dir = temp_dir("seed");
    let json = dir.join("out.json");
    let args = seed_command(port, "bench:s3cret", ratio, json.to_str().unwrap(), extra);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let before = commandstats(port);
    let (out, _) = bench(&args, LIMIT);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "exit {:?}\n{stdout}\n{stderr}", out.status);
    let after = commandstats(port);
    let doc = json_file(&json);
    let stats = &doc["ALL STATS"];
    let sets = stats["Sets"]["Count"].as_u64().unwrap();
    let gets = stats["Gets"]["Count"].as_u64().unwrap();
    assert_eq!(sets, delta(&before, &after, "set"), "SET count vs commandstats");
    assert_eq!(gets, delta(&before, &after, "get"), "GET count vs commandstats");
    assert_eq!(sets + gets, 8 * 1000, "8 connections x 1000 requests");
    assert_eq!(stats["Totals"]["Count"].as_u64().unwrap(), sets + gets);
    let _ = std::fs::remove_dir_all(dir);
    (doc, stdout)
}

fn with_user(server: &Server) {
    assert_eq!(cmd(server.port, &["ACL", "SETUSER", "bench", "on", ">s3cret", "~*", "&*", "+@all"]), "+OK\r\n");
}

#[test]
fn seed_commands_match_commandstats() {
    let Some(server) = redis(&[]) else { return };
    with_user(&server);
    let (doc, _) = run_seed(server.port, "1:0", &[]);
    assert_eq!(doc["ALL STATS"]["Sets"]["Count"], 8000);
    let (doc, _) = run_seed(server.port, "1:0", &["--pipeline=32"]);
    assert_eq!(doc["configuration"]["pipeline"], 32);
    let (doc, _) = run_seed(server.port, "0:1", &["--pipeline=32"]);
    let gets = &doc["ALL STATS"]["Gets"];
    assert_eq!(gets["Hits"].as_u64().unwrap() + gets["Misses"].as_u64().unwrap(), 8000);
    assert!(gets["Hits"].as_u64().unwrap() > 0, "keys written before must be hits");
    let (doc, _) = run_seed(server.port, "1:1", &[]);
    assert_eq!(doc["ALL STATS"]["Sets"]["Count"], 4000);
    assert_eq!(doc["ALL STATS"]["Gets"]["Count"], 4000);
    // Every value written is 128 bytes.
    let k = cmd(server.port, &["RANDOMKEY"]);
    let key = k.split("\r\n").nth(1).unwrap().to_string();
    assert_eq!(int(server.port, &["STRLEN", &key]), 128);
}

#[test]
fn json_and_table_agree() {
    let Some(server) = redis(&[]) else { return };
    with_user(&server);
    let (doc, stdout) = run_seed(server.port, "1:3", &["--pipeline=4", "--print-percentiles", "50,90,99.9"]);
    let stats = &doc["ALL STATS"];
    for (row, key) in [("Sets", "Sets"), ("Gets", "Gets"), ("Totals", "Totals")] {
        let cols = table_row(&stdout, row);
        let j = &stats[key];
        let close = |a: f64, b: f64| (a - b).abs() <= 0.011 + b.abs() * 1e-6;
        assert!(close(cols[0].unwrap(), j["Ops/sec"].as_f64().unwrap()), "{row} ops/sec");
        assert!(close(cols[3].unwrap(), j["Average Latency"].as_f64().unwrap()), "{row} avg latency");
        let pct = &j["Percentile Latencies"];
        assert!(close(cols[4].unwrap(), pct["p50.00"].as_f64().unwrap()), "{row} p50");
        assert!(close(cols[5].unwrap(), pct["p90.00"].as_f64().unwrap()), "{row} p90");
        assert!(close(cols[6].unwrap(), pct["p99.90"].as_f64().unwrap()), "{row} p99.9");
        assert!(close(cols[7].unwrap(), j["KB/sec"].as_f64().unwrap()), "{row} KB/sec");
        assert!(pct["Histogram log format"]["Compressed Histogram"].as_str().unwrap().starts_with("HISTF"));
        // The full distribution adds up to the count.
        let dist = j["Latency Distribution (msec, count, cumulative percent)"].as_array().unwrap();
        let n: u64 = dist.iter().map(|e| e[1].as_u64().unwrap()).sum();
        assert_eq!(n, j["Count"].as_u64().unwrap());
        // The per-second series adds up to the count too.
        let series: u64 = j["Time-Serie"].as_object().unwrap().values().map(|s| s["Count"].as_u64().unwrap()).sum();
        assert_eq!(series, j["Count"].as_u64().unwrap());
    }
    let sets_row = table_row(&stdout, "Sets");
    assert_eq!(sets_row[1], None, "Sets have no hits column");
    let gets = &stats["Gets"];
    let gets_row = table_row(&stdout, "Gets");
    assert!((gets_row[1].unwrap() - gets["Hits/sec"].as_f64().unwrap()).abs() < 0.011);
    assert!(stdout.contains("p90 Latency"));
    assert!(stdout.contains("Request Latency Distribution"), "histogram shown unless --hide-histogram");
}

#[test]
fn run_count_test_time_and_rate_limiting() {
    let Some(server) = redis(&[]) else { return };
    let port = server.port.to_string();
    let dir = temp_dir("runs");
    let json = dir.join("runs.json");
    let before = commandstats(server.port);
    let (out, took) = bench(
        &["-p", &port, "-t", "1", "-c", "2", "--test-time=1", "--run-count=2", "--ratio=1:1", "--hide-histogram", "--json-out-file", json.to_str().unwrap()],
        LIMIT,
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(took < Duration::from_secs(10), "two 1-second runs took {took:?}");
    let after = commandstats(server.port);
    let doc = json_file(&json);
    let runs: u64 = (1..=2).map(|i| doc[format!("RUN #{i} RESULTS")]["Totals"]["Count"].as_u64().unwrap()).sum();
    assert_eq!(runs, delta(&before, &after, "set") + delta(&before, &after, "get"));
    assert!(doc["BEST RUN RESULTS"].is_object() && doc["WORST RUN RESULTS"].is_object());
    assert_eq!(doc["AGGREGATED AVERAGE RESULTS (2 runs)"]["Totals"]["Count"].as_u64().unwrap(), runs);
    assert!(stdout.contains("BEST RUN RESULTS") && stdout.contains("AGGREGATED AVERAGE RESULTS (2 runs)"));
    assert!(stderr.contains("[RUN #1") && stderr.contains("[RUN #2"), "progress on stderr");

    // 2 connections at 100 requests/second each for 2 seconds: about 400 requests.
    let (out, _) = bench(&["-p", &port, "-t", "1", "-c", "2", "--test-time=2", "--rate-limiting=100", "--hide-histogram", "--json-out-file", json.to_str().unwrap()], LIMIT);
    assert!(out.status.success());
    let n = json_file(&json)["ALL STATS"]["Totals"]["Count"].as_u64().unwrap();
    assert!((250..=500).contains(&n), "rate-limited run did {n} requests");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn resp3_and_select_db() {
    let Some(server) = redis(&[]) else { return };
    let port = server.port.to_string();
    let before = commandstats(server.port);
    let (out, _) = bench(&["-p", &port, "-P", "resp3", "--select-db", "3", "-t", "1", "-c", "3", "-n", "500", "--ratio=1:1", "--key-maximum=100", "--hide-histogram"], LIMIT);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let after = commandstats(server.port);
    assert_eq!(delta(&before, &after, "hello"), 3);
    assert_eq!(delta(&before, &after, "set") + delta(&before, &after, "get"), 1500);
    assert_eq!(cmd(server.port, &["SELECT", "3"]), "+OK\r\n");
    let keys = cmd(server.port, &["INFO", "keyspace"]);
    assert!(keys.contains("db3:keys="), "{keys}");
}

#[test]
fn memcache_text_counts_match_memcached_stats() {
    // Killed when dropped, also when an assertion below panics.
    let Some(server) = memcached() else { return };
    let port = server.port;
    let stats = |port: u16| -> std::collections::HashMap<String, u64> {
        use std::io::{Read, Write};
        // One `stats` exchange; None while memcached is not up yet (a connection it refused or,
        // starting, reset: seen once in a cargo test run).
        let ask = |port: u16| -> Option<Vec<u8>> {
            let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
            s.write_all(b"stats\r\n").ok()?;
            let mut buf = Vec::new();
            let mut chunk = [0u8; 8192];
            while !buf.ends_with(b"END\r\n") {
                let n = s.read(&mut chunk).ok().filter(|&n| n > 0)?;
                buf.extend_from_slice(&chunk[..n]);
            }
            Some(buf)
        };
        for _ in 0..100 {
            if let Some(buf) = ask(port) {
                return String::from_utf8_lossy(&buf)
                    .lines()
                    .filter_map(|l| {
                        let mut p = l.split_whitespace().skip(1);
                        Some((p.next()?.to_string(), p.next()?.parse().ok()?))
                    })
                    .collect();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("memcached did not start");
    };
    let before = stats(port);
    let dir = temp_dir("mc");
    let json = dir.join("mc.json");
    let (out, _) = bench(
        &["-p", &port.to_string(), "-P", "memcache_text", "-t", "2", "-c", "2", "-n", "500", "--ratio=1:1", "--pipeline=8", "--key-maximum=200", "--hide-histogram", "--json-out-file", json.to_str().unwrap()],
        LIMIT,
    );
    let after = stats(port);
    drop(server);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let doc = json_file(&json);
    let d = |k: &str| after[k] - before[k];
    assert_eq!(doc["ALL STATS"]["Sets"]["Count"].as_u64().unwrap(), d("cmd_set"));
    assert_eq!(doc["ALL STATS"]["Gets"]["Count"].as_u64().unwrap(), d("cmd_get"));
    assert_eq!(doc["ALL STATS"]["Gets"]["Hits"].as_u64().unwrap(), d("get_hits"));
    let _ = std::fs::remove_dir_all(dir);
}
