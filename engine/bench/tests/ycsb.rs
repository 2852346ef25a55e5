//! YCSB load/run against redis-server: operation counts equal `INFO commandstats` deltas for
//! both command groups, and the white paper's command lines run as written (smaller counts).

mod support;

use std::time::Duration;

use support::*;

const LIMIT: Duration = Duration::from_secs(60);

fn ycsb(args: &[&str]) -> (String, String) {
    let mut all = vec!["ycsb"];
    all.extend_from_slice(args);
    let (out, _) = bench(&all, LIMIT);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{all:?}\n{stdout}\n{stderr}");
    (stdout, stderr)
}

fn ycsb_line(stdout: &str, prefix: &str) -> u64 {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no '{prefix}' in\n{stdout}"))
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn whitepaper_string_commands_match_commandstats() {
    let Some(server) = redis(&[]) else { return };
    let host = "redis.host=127.0.0.1".to_string();
    let port = format!("redis.port={}", server.port);
    let common = |wl: &'static str, dist: Option<&'static str>, ops: &'static str| -> Vec<String> {
        let mut v: Vec<String> = vec!["-s".into(), "-P".into(), format!("workloads/{wl}"), "-p".into(), host.clone(), "-p".into(), port.clone(),
            "-p".into(), "recordcount=2000".into(), "-p".into(), format!("operationcount={ops}"), "-p".into(), "redis.timeout=5000".into(),
            "-p".into(), "redis.command_group=string".into(), "-p".into(), "fieldcount=1".into(), "-p".into(), "fieldlength=100".into()];
        if let Some(d) = dist {
            v.push("-p".into());
            v.push(format!("requestdistribution={d}"));
        }
        v.push("-threads".into());
        v.push("4".into());
        v
    };
    let run = |phase: &str, args: Vec<String>| -> String {
        let mut all: Vec<&str> = vec![phase, "redis"];
        all.extend(args.iter().map(String::as_str));
        ycsb(&all).0
    };
    let s0 = commandstats(server.port);
    let out = run("load", common("workloada", None, "2000"));
    let s1 = commandstats(server.port);
    assert_eq!(ycsb_line(&out, "[INSERT], Operations,"), 2000);
    assert_eq!(delta(&s0, &s1, "set"), 2000);
    assert_eq!(int(server.port, &["DBSIZE"]), 2000);
    assert_eq!(int(server.port, &["STRLEN", "user6284781860667377211"]), 100, "YCSB's first key name");

    let out = run("run", common("workloadc", Some("uniform"), "1500"));
    let s2 = commandstats(server.port);
    assert_eq!(ycsb_line(&out, "[READ], Operations,"), 1500);
    assert_eq!(ycsb_line(&out, "[READ], Return=OK,"), 1500, "every loaded key is found");
    assert_eq!(delta(&s1, &s2, "get"), 1500);

    let out = run("run", common("workloadc", Some("zipfian"), "1500"));
    let s3 = commandstats(server.port);
    assert_eq!(delta(&s2, &s3, "get"), 1500);
    assert_eq!(ycsb_line(&out, "[READ], Return=OK,"), 1500);

    let out = run("run", common("workloada", Some("uniform"), "1000"));
    let s4 = commandstats(server.port);
    let reads = ycsb_line(&out, "[READ], Operations,");
    let updates = ycsb_line(&out, "[UPDATE], Operations,");
    assert_eq!(reads + updates, 1000);
    assert_eq!(delta(&s3, &s4, "get"), reads);
    assert_eq!(delta(&s3, &s4, "set"), updates);
    assert!(reads > 350 && updates > 350, "about half each: {reads}/{updates}");
}

#[test]
fn hash_group_follows_ycsbs_redis_binding() {
    let Some(server) = redis(&[]) else { return };
    let port = server.port.to_string();
    let dir = temp_dir("ycsb");
    let json = dir.join("y.json");
    let s0 = commandstats(server.port);
    ycsb(&["load", "--workload", "a", "--port", &port, "--recordcount", "500", "--fieldcount", "3", "--fieldlength", "10", "--threads", "3", "--hide-histogram"]);
    let s1 = commandstats(server.port);
    assert_eq!(delta(&s0, &s1, "hmset"), 500);
    assert_eq!(delta(&s0, &s1, "zadd"), 500);
    assert_eq!(int(server.port, &["ZCARD", "_indices"]), 500);
    assert_eq!(int(server.port, &["HLEN", "user6284781860667377211"]), 3);

    // Workload f: read-modify-write is HGETALL then HMSET of one field.
    let (out, _) = ycsb(&["run", "--workload", "f", "--port", &port, "--recordcount", "500", "--operationcount", "400", "--fieldcount", "3", "--fieldlength", "10", "--threads", "2", "--json-out-file", json.to_str().unwrap()]);
    let s2 = commandstats(server.port);
    let reads = ycsb_line(&out, "[READ], Operations,");
    let rmw = ycsb_line(&out, "[READ-MODIFY-WRITE], Operations,");
    assert_eq!(reads + rmw, 400);
    assert_eq!(delta(&s1, &s2, "hgetall"), 400);
    assert_eq!(delta(&s1, &s2, "hmset"), rmw);
    let doc = json_file(&json);
    assert_eq!(doc["ALL STATS"]["Reads"]["Count"].as_u64().unwrap(), reads);
    assert_eq!(doc["ALL STATS"]["RMWs"]["Count"].as_u64().unwrap(), rmw);
    assert_eq!(doc["ALL STATS"]["Totals"]["Count"], 400);

    // Workload d inserts new records after the loaded ones; workload e scans the index.
    let (out, _) = ycsb(&["run", "--workload", "d", "--port", &port, "--recordcount", "500", "--operationcount", "400", "--fieldcount", "3", "--fieldlength", "10", "--threads", "2", "--hide-histogram"]);
    let inserts = ycsb_line(&out, "[INSERT], Operations,");
    assert_eq!(int(server.port, &["ZCARD", "_indices"]), 500 + inserts);
    let s3 = commandstats(server.port);
    let (out, _) = ycsb(&["run", "--workload", "e", "--port", &port, "--recordcount", "500", "--operationcount", "100", "--fieldcount", "3", "--fieldlength", "10", "--hide-histogram", "-p", "maxscanlength=10"]);
    let s4 = commandstats(server.port);
    assert_eq!(delta(&s3, &s4, "zrangebyscore"), ycsb_line(&out, "[SCAN], Operations,"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn target_limits_the_rate() {
    let Some(server) = redis(&[]) else { return };
    let port = server.port.to_string();
    ycsb(&["load", "--workload", "c", "--port", &port, "--recordcount", "100", "--command-group", "string", "--hide-histogram"]);
    let start = std::time::Instant::now();
    ycsb(&["run", "--workload", "c", "--port", &port, "--recordcount", "100", "--operationcount", "200", "--command-group", "string", "-threads", "2", "-target", "200", "--hide-histogram"]);
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(900) && took < Duration::from_secs(4), "200 ops at 200/s took {took:?}");
}
