//! The same oracle checks against basalt-server, when its binary has been built.

mod support;

use std::time::Duration;

use support::*;

const LIMIT: Duration = Duration::from_secs(60);

#[test]
fn seed_command_counts_match_basalt_commandstats() {
    let Some(server) = basalt() else { return };
    let port = server.port.to_string();
    let dir = temp_dir("basalt-seed");
    let json = dir.join("b.json");
    for pipeline in ["1", "32"] {
        for ratio in ["1:0", "0:1", "1:1"] {
            let before = commandstats(server.port);
            let (out, _) = bench(
                &["-s", "127.0.0.1", "-p", &port, "-c", "4", "-t", "2", "-n", "500", "--random-data", "--randomize", "--distinct-client-seed",
                  "-d", "128", "--key-maximum=128000", "--key-minimum=1", "--key-prefix=", "--key-pattern=R:R", &format!("--ratio={ratio}"),
                  &format!("--pipeline={pipeline}"), "--hide-histogram", "--json-out-file", json.to_str().unwrap()],
                LIMIT,
            );
            let (stdout, stderr) = text(&out);
            assert!(out.status.success(), "{stdout}\n{stderr}");
            let after = commandstats(server.port);
            let doc = json_file(&json);
            assert_eq!(doc["ALL STATS"]["Sets"]["Count"].as_u64().unwrap(), delta(&before, &after, "set"), "ratio {ratio} pipeline {pipeline}");
            assert_eq!(doc["ALL STATS"]["Gets"]["Count"].as_u64().unwrap(), delta(&before, &after, "get"), "ratio {ratio} pipeline {pipeline}");
            assert_eq!(doc["ALL STATS"]["Totals"]["Count"], 4000);
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn parallel_keys_land_in_range_on_basalt() {
    let Some(server) = basalt() else { return };
    let port = server.port.to_string();
    let (out, _) = bench(&["-p", &port, "-t", "2", "-c", "2", "-n", "allkeys", "--key-pattern=P:P", "--key-minimum=1", "--key-maximum=400", "--key-prefix=bp:", "--ratio=1:0", "-d", "16", "--hide-histogram"], LIMIT);
    assert!(out.status.success(), "{}", text(&out).1);
    assert_eq!(int(server.port, &["DBSIZE"]), 400);
    let keys = array(server.port, &["KEYS", "bp:*"]);
    assert_eq!(keys.len(), 400);
    assert!(keys.iter().all(|k| k[3..].parse::<u64>().map(|n| (1..=400).contains(&n)).unwrap_or(false)));
}

#[test]
fn ycsb_string_load_and_read_on_basalt() {
    let Some(server) = basalt() else { return };
    let port = server.port.to_string();
    let s0 = commandstats(server.port);
    let (out, _) = bench(&["ycsb", "load", "--workload", "c", "--port", &port, "--recordcount", "300", "--command-group", "string", "--threads", "2", "--hide-histogram"], LIMIT);
    assert!(out.status.success(), "{}", text(&out).1);
    let (out, _) = bench(&["ycsb", "run", "--workload", "c", "--port", &port, "--recordcount", "300", "--operationcount", "300", "--command-group", "string", "--threads", "2", "--hide-histogram"], LIMIT);
    assert!(out.status.success(), "{}", text(&out).1);
    let s1 = commandstats(server.port);
    assert_eq!(delta(&s0, &s1, "set"), 300);
    assert_eq!(delta(&s0, &s1, "get"), 300);
}
