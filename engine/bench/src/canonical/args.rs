//! `basalt-bench canonical` options: RethinkDB's canonical workload (its performance report's
//! methodology) with its defaults, over the memcached text protocol.

use std::path::PathBuf;

use clap::Parser;

use crate::cli::{parse_auth, Auth};

#[derive(Parser, Debug, Clone)]
#[command(
    name = "basalt-bench canonical",
    about = "RethinkDB's canonical workload over the memcached text protocol: 1 delete per 4 updates \
             per 8 inserts per 64 reads, reads batched 1-16 keys per get, keys 8-16 B, values 8-128 B, \
             many connections, one request in flight on each"
)]
pub struct CanonicalArgs {
    /// Server address.
    #[arg(short = 's', long = "server", default_value = "localhost")]
    pub server: String,
    /// The server's memcached port.
    #[arg(short = 'p', long = "port", default_value_t = 11211)]
    pub port: u16,
    /// USER:PASSWORD (or PASSWORD for `default`), sent as memcached's ASCII auth.
    #[arg(short = 'a', long = "authenticate")]
    pub authenticate: Option<String>,
    /// The same, read from the first line of a file (not visible in the process list).
    #[arg(long = "authenticate-file")]
    pub authenticate_file: Option<PathBuf>,
    /// Connections (the report's 512).
    #[arg(short = 'c', long = "clients", default_value_t = 512)]
    pub clients: u32,
    /// OS threads the connections are spread over (default: the machine's cores).
    #[arg(short = 't', long = "threads")]
    pub threads: Option<u32>,
    /// Requests per connection (default 10000 unless --test-time).
    #[arg(short = 'n', long = "requests")]
    pub requests: Option<u64>,
    /// Seconds to run instead of a request count.
    #[arg(long = "test-time")]
    pub test_time: Option<u64>,
    /// Keys in place when the run starts (the keys --load writes), spread over the connections.
    #[arg(long = "keys", default_value_t = 100_000)]
    pub keys: u64,
    /// Write the --keys keys (one `set` each) and stop: run this before the mixed run.
    #[arg(long = "load")]
    pub load: bool,
    /// Connection c works on the key numbers of connection N + c: runs (and their --load) with
    /// ranges of connections that do not overlap touch disjoint keys, so one server holds the
    /// key sets of several runs at once and no run's inserts meet another run's keys.
    #[arg(long = "first-connection", default_value_t = 0)]
    pub first_connection: u32,
    /// DELETES:UPDATES:INSERTS:READS per request.
    #[arg(long = "ratio", default_value = "1:4:8:64")]
    pub ratio: String,
    /// Keys per read request, MIN-MAX (one `get` with that many keys).
    #[arg(long = "batch", default_value = "1-16")]
    pub batch: String,
    /// Key sizes in bytes, MIN-MAX.
    #[arg(long = "key-size", default_value = "8-16")]
    pub key_size: String,
    /// Value sizes in bytes, MIN-MAX.
    #[arg(long = "value-size", default_value = "8-128")]
    pub value_size: String,
    /// Seed of the random choices (each connection derives its own).
    #[arg(long = "seed", default_value_t = 0x63616e6f6e)]
    pub seed: u64,
    /// Percentiles shown, comma separated.
    #[arg(long = "print-percentiles", default_value = "50,99,99.9")]
    pub print_percentiles: String,
    /// Do not print the latency distribution.
    #[arg(long = "hide-histogram")]
    pub hide_histogram: bool,
    /// Write the results as JSON (memtier's layout, with a "canonical" block) to this file.
    #[arg(long = "json-out-file")]
    pub json_out_file: Option<PathBuf>,
    /// Give up when no reply arrives for this many seconds.
    #[arg(long = "timeout", default_value_t = 10)]
    pub timeout: u64,
}

/// An inclusive range MIN-MAX.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub min: u64,
    pub max: u64,
}

/// Requests per 77 (the report's 1 + 4 + 8 + 64), by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mix {
    pub deletes: u64,
    pub updates: u64,
    pub inserts: u64,
    pub reads: u64,
}

impl Mix {
    pub fn total(&self) -> u64 {
        self.deletes + self.updates + self.inserts + self.reads
    }
}

/// Most keys one connection may insert: key numbers of connection c are c * STRIDE + i.
pub const STRIDE: u64 = 1 << 24;
pub const MAX_CLIENTS: u32 = 4096;

#[derive(Clone, Debug)]
pub struct Canonical {
    pub server: String,
    pub port: u16,
    pub auth: Option<Auth>,
    pub clients: u32,
    pub threads: u32,
    pub requests: Option<u64>,
    pub test_time: Option<u64>,
    pub keys: u64,
    pub load: bool,
    /// The key range of connection c is that of connection first_connection + c.
    pub first_connection: u32,
    pub mix: Mix,
    pub batch: Span,
    pub key_size: Span,
    pub value_size: Span,
    pub seed: u64,
    pub percentiles: Vec<f64>,
    pub hide_histogram: bool,
    pub json_out_file: Option<PathBuf>,
    pub timeout_secs: u64,
}

fn span(value: &str, what: &str, floor: u64, ceiling: u64) -> Result<Span, String> {
    let (a, b) = value.split_once('-').unwrap_or((value, value));
    let parse = |s: &str| s.trim().parse::<u64>().map_err(|_| format!("{what}: '{s}' is not a number"));
    let (min, max) = (parse(a)?, parse(b)?);
    if min > max || min < floor || max > ceiling {
        return Err(format!("{what} must be MIN-MAX with {floor} <= MIN <= MAX <= {ceiling}, got '{value}'"));
    }
    Ok(Span { min, max })
}

fn mix(value: &str) -> Result<Mix, String> {
    let parts: Vec<u64> = value
        .split(':')
        .map(|p| p.trim().parse::<u64>().map_err(|_| format!("--ratio: '{p}' is not a number")))
        .collect::<Result<_, _>>()?;
    let [deletes, updates, inserts, reads] = parts[..] else {
        return Err(format!("--ratio must be DELETES:UPDATES:INSERTS:READS, got '{value}'"));
    };
    let mix = Mix { deletes, updates, inserts, reads };
    if mix.total() == 0 || mix.total() > 1_000_000 {
        return Err("--ratio must issue some requests (and add up to at most 1000000)".into());
    }
    Ok(mix)
}

pub fn parse(argv: &[String]) -> Result<CanonicalArgs, clap::Error> {
    CanonicalArgs::try_parse_from(argv)
}

impl Canonical {
    pub fn from_args(a: CanonicalArgs) -> Result<Canonical, String> {
        if a.clients == 0 || a.clients > MAX_CLIENTS {
            return Err(format!("--clients must be 1..={MAX_CLIENTS}"));
        }
        if u64::from(a.first_connection) + u64::from(a.clients) > u64::from(MAX_CLIENTS) {
            return Err(format!("--first-connection + --clients must be at most {MAX_CLIENTS}"));
        }
        let cores = std::thread::available_parallelism().map(|n| n.get() as u32).unwrap_or(1);
        let threads = a.threads.unwrap_or(cores).clamp(1, a.clients);
        if a.test_time == Some(0) || a.requests == Some(0) {
            return Err("--test-time and --requests must be at least 1".into());
        }
        if a.test_time.is_some() && a.requests.is_some() {
            return Err("give --requests or --test-time, not both".into());
        }
        if a.keys / a.clients as u64 >= STRIDE / 2 {
            return Err(format!("--keys must be below {} per connection", STRIDE / 2));
        }
        let auth = match (&a.authenticate, &a.authenticate_file) {
            (Some(_), Some(_)) => return Err("give --authenticate or --authenticate-file, not both".into()),
            (Some(v), None) => Some(parse_auth(v)),
            (None, Some(file)) => {
                let text = std::fs::read_to_string(file).map_err(|e| format!("--authenticate-file {}: {e}", file.display()))?;
                Some(parse_auth(text.lines().next().unwrap_or("")))
            }
            (None, None) => None,
        };
        let percentiles = a
            .print_percentiles
            .split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| p.trim().parse::<f64>().ok().filter(|v| (0.0..=100.0).contains(v)).ok_or(format!("--print-percentiles: bad value '{p}'")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Canonical {
            server: a.server,
            port: a.port,
            auth,
            clients: a.clients,
            threads,
            requests: if a.test_time.is_none() { Some(a.requests.unwrap_or(10_000)) } else { None },
            test_time: a.test_time,
            keys: a.keys,
            load: a.load,
            first_connection: a.first_connection,
            mix: mix(&a.ratio)?,
            batch: span(&a.batch, "--batch", 1, 1024)?,
            // A key number needs up to 8 characters after the 'c' (connection 4095's last).
            key_size: span(&a.key_size, "--key-size", 8, 250)?,
            value_size: span(&a.value_size, "--value-size", 1, 1 << 20)?,
            seed: a.seed,
            percentiles: if percentiles.is_empty() { vec![50.0, 99.0, 99.9] } else { percentiles },
            hide_histogram: a.hide_histogram,
            json_out_file: a.json_out_file,
            timeout_secs: a.timeout.max(1),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(extra: &[&str]) -> Result<Canonical, String> {
        let mut argv = vec!["canonical".to_string()];
        argv.extend(extra.iter().map(|s| s.to_string()));
        Canonical::from_args(parse(&argv).map_err(|e| e.to_string())?)
    }

    #[test]
    fn defaults_are_the_reports() {
        let c = parsed(&[]).unwrap();
        assert_eq!(c.mix, Mix { deletes: 1, updates: 4, inserts: 8, reads: 64 });
        assert_eq!((c.batch, c.key_size, c.value_size), (Span { min: 1, max: 16 }, Span { min: 8, max: 16 }, Span { min: 8, max: 128 }));
        assert_eq!((c.clients, c.port, c.requests), (512, 11211, Some(10_000)));
    }

    #[test]
    fn connection_ranges_stay_within_the_key_space() {
        assert_eq!(parsed(&["--first-connection=3584", "--clients=512"]).unwrap().first_connection, 3584);
        assert!(parsed(&["--first-connection=3585", "--clients=512"]).is_err());
    }

    #[test]
    fn bad_values_are_errors() {
        assert!(parsed(&["--ratio=1:2:3"]).is_err());
        assert!(parsed(&["--ratio=0:0:0:0"]).is_err());
        assert!(parsed(&["--key-size=4-16"]).is_err());
        assert!(parsed(&["--batch=16-1"]).is_err());
        assert!(parsed(&["--clients=0"]).is_err());
        assert!(parsed(&["--requests=5", "--test-time=5"]).is_err());
        assert!(parsed(&["-a", "u:p", "--authenticate-file=/x"]).is_err());
    }
}
