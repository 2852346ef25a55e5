//! Key patterns hit the ranges asked: checked on the server with DBSIZE and KEYS afterwards.

mod support;

use std::time::Duration;

use support::*;

const LIMIT: Duration = Duration::from_secs(60);

fn key_numbers(port: u16, prefix: &str) -> Vec<u64> {
    array(port, &["KEYS", &format!("{prefix}*")])
        .iter()
        .map(|k| k.strip_prefix(prefix).unwrap().parse().unwrap_or_else(|_| panic!("bad key {k}")))
        .collect()
}

fn run(port: u16, args: &[&str]) {
    let port = port.to_string();
    let mut all = vec!["-p", port.as_str(), "--hide-histogram", "--ratio=1:0", "-d", "8"];
    all.extend_from_slice(args);
    let (out, _) = bench(&all, LIMIT);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{all:?}\n{stdout}\n{stderr}");
}

#[test]
fn parallel_allkeys_writes_every_key_once() {
    let Some(server) = redis(&[]) else { return };
    let before = commandstats(server.port);
    run(server.port, &["-t", "2", "-c", "2", "-n", "allkeys", "--key-pattern=P:P", "--key-minimum=1", "--key-maximum=1000", "--key-prefix=p:"]);
    let after = commandstats(server.port);
    // allkeys with P:P: (1000 - 1) / 4 + 1 = 250 requests per connection, one slice each.
    assert_eq!(delta(&before, &after, "set"), 1000);
    assert_eq!(int(server.port, &["DBSIZE"]), 1000);
    let mut keys = key_numbers(server.port, "p:");
    keys.sort();
    assert_eq!(keys, (1..=1000).collect::<Vec<_>>());
}

#[test]
fn sequential_walks_from_the_minimum() {
    let Some(server) = redis(&[]) else { return };
    run(server.port, &["-t", "1", "-c", "1", "-n", "300", "--key-pattern=S:S", "--key-minimum=500", "--key-maximum=10000", "--key-prefix=s-"]);
    let mut keys = key_numbers(server.port, "s-");
    keys.sort();
    assert_eq!(keys, (500..800).collect::<Vec<_>>());
}

#[test]
fn random_stays_inside_the_range_and_covers_it() {
    let Some(server) = redis(&[]) else { return };
    run(server.port, &["-t", "2", "-c", "2", "-n", "1000", "--key-pattern=R:R", "--key-minimum=100", "--key-maximum=199", "--key-prefix=r:", "--distinct-client-seed"]);
    let keys = key_numbers(server.port, "r:");
    assert!(keys.iter().all(|k| (100..=199).contains(k)), "{keys:?}");
    assert_eq!(keys.len(), 100, "4000 uniform draws cover all 100 keys");
    assert_eq!(int(server.port, &["DBSIZE"]), 100);
}

#[test]
fn gaussian_clusters_around_the_median() {
    let Some(server) = redis(&[]) else { return };
    run(server.port, &["-t", "1", "-c", "2", "-n", "1000", "--key-pattern=G:G", "--key-minimum=0", "--key-maximum=100000", "--key-median=50000", "--key-stddev=100", "--key-prefix=g:", "--randomize", "--distinct-client-seed"]);
    let keys = key_numbers(server.port, "g:");
    assert!(keys.len() > 300, "2000 draws with stddev 100 give several hundred distinct keys, got {}", keys.len());
    assert!(keys.iter().all(|k| (49_300..=50_700).contains(k)), "all within 7 stddev of the median");
    let mean = keys.iter().sum::<u64>() as f64 / keys.len() as f64;
    assert!((mean - 50_000.0).abs() < 30.0, "mean {mean}");
}

#[test]
fn same_seed_without_distinct_client_seed_repeats_keys() {
    let Some(server) = redis(&[]) else { return };
    // memtier's default: every client draws the same key sequence.
    run(server.port, &["-t", "1", "-c", "4", "-n", "50", "--key-pattern=R:R", "--key-minimum=1", "--key-maximum=1000000", "--key-prefix=same:"]);
    let keys = key_numbers(server.port, "same:");
    assert!(keys.len() <= 50, "4 clients x 50 requests with one seed write at most 50 keys, got {}", keys.len());
}
