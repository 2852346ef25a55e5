//! memtier_benchmark's command line, with memtier's names, defaults and meanings.

use std::path::PathBuf;

use clap::Parser;

use crate::command::{parse_commands, CommandTemplate};
use crate::keys::{DataSizes, KeyPattern};

#[derive(Parser, Debug, Clone)]
#[command(
    name = "basalt-bench",
    version,
    about = "memtier_benchmark-compatible load generator for Redis-protocol and memcached servers",
    after_help = "YCSB workloads: basalt-bench ycsb load|run --workload a|b|c|d|e|f [--help]\nRethinkDB's canonical workload (memcached protocol): basalt-bench canonical [--help]"
)]
pub struct Args {
    /// Server address.
    #[arg(short = 's', long = "server", default_value = "localhost")]
    pub server: String,
    /// Server port.
    #[arg(short = 'p', long = "port", default_value_t = 6379)]
    pub port: u16,
    /// Authenticate: PASSWORD, or USER:PASSWORD for an ACL user.
    #[arg(short = 'a', long = "authenticate")]
    pub authenticate: Option<String>,
    /// The same as --authenticate, read from a file (its first line): a password on the
    /// command line is visible to every user of the host in its process list.
    #[arg(long = "authenticate-file")]
    pub authenticate_file: Option<PathBuf>,
    /// Connect with TLS (rustls).
    #[arg(long)]
    pub tls: bool,
    /// Client certificate (PEM) for TLS.
    #[arg(long)]
    pub cert: Option<PathBuf>,
    /// Client private key (PEM) for TLS.
    #[arg(long)]
    pub key: Option<PathBuf>,
    /// CA certificate (PEM) that signs the server certificate.
    #[arg(long)]
    pub cacert: Option<PathBuf>,
    /// Do not verify the server certificate.
    #[arg(long = "tls-skip-verify")]
    pub tls_skip_verify: bool,
    /// Server name sent in the TLS handshake (defaults to --server).
    #[arg(long)]
    pub sni: Option<String>,
    /// Protocol: redis (RESP2), resp2, resp3, memcache_text.
    #[arg(short = 'P', long, default_value = "redis")]
    pub protocol: String,
    /// Number of threads.
    #[arg(short = 't', long, default_value_t = 4)]
    pub threads: u32,
    /// Number of clients (connections) per thread.
    #[arg(short = 'c', long, default_value_t = 50)]
    pub clients: u32,
    /// Requests per client, or `allkeys` to cover the whole key range (default 10000).
    #[arg(short = 'n', long)]
    pub requests: Option<String>,
    /// Seconds to run (instead of a request count).
    #[arg(long = "test-time")]
    pub test_time: Option<u64>,
    /// SET:GET ratio.
    #[arg(long, default_value = "1:10")]
    pub ratio: String,
    /// Requests in flight per connection.
    #[arg(long, default_value_t = 1)]
    pub pipeline: u32,
    /// Object data size in bytes (default 32).
    #[arg(short = 'd', long = "data-size")]
    pub data_size: Option<u32>,
    /// Random object sizes MIN-MAX.
    #[arg(long = "data-size-range")]
    pub data_size_range: Option<String>,
    /// Weighted sizes SIZE1:WEIGHT1,SIZE2:WEIGHT2,...
    #[arg(long = "data-size-list")]
    pub data_size_list: Option<String>,
    /// Size pattern over --data-size-range: R (random) or S (sequential).
    #[arg(long = "data-size-pattern", default_value = "R")]
    pub data_size_pattern: String,
    /// Random values instead of a constant filler.
    #[arg(short = 'R', long = "random-data")]
    pub random_data: bool,
    /// Key prefix (may be empty: --key-prefix=).
    #[arg(long = "key-prefix", default_value = "memtier-", allow_hyphen_values = true)]
    pub key_prefix: String,
    /// Lowest key number.
    #[arg(long = "key-minimum", default_value_t = 0)]
    pub key_minimum: u64,
    /// Highest key number.
    #[arg(long = "key-maximum", default_value_t = 10_000_000)]
    pub key_maximum: u64,
    /// SET:GET key patterns: R random, S sequential, G gaussian, P parallel.
    #[arg(long = "key-pattern", default_value = "R:R")]
    pub key_pattern: String,
    /// Standard deviation of G (default (max-min)/6).
    #[arg(long = "key-stddev")]
    pub key_stddev: Option<f64>,
    /// Median of G (default the middle of the range).
    #[arg(long = "key-median")]
    pub key_median: Option<f64>,
    /// Seed from the clock instead of a fixed seed.
    #[arg(long)]
    pub randomize: bool,
    /// Give every client its own seed.
    #[arg(long = "distinct-client-seed")]
    pub distinct_client_seed: bool,
    /// Do not print the latency distribution.
    #[arg(long = "hide-histogram")]
    pub hide_histogram: bool,
    /// Percentiles shown in the table, comma separated.
    #[arg(long = "print-percentiles", default_value = "50,99,99.9")]
    pub print_percentiles: String,
    /// Write the results as JSON to this file.
    #[arg(long = "json-out-file")]
    pub json_out_file: Option<PathBuf>,
    /// Write the report to this file instead of standard output.
    #[arg(short = 'o', long = "out-file")]
    pub out_file: Option<PathBuf>,
    /// Number of full test runs.
    #[arg(short = 'x', long = "run-count", default_value_t = 1)]
    pub run_count: u32,
    /// Highest request rate per connection (requests per second).
    #[arg(long = "rate-limiting")]
    pub rate_limiting: Option<u64>,
    /// SELECT this database after connecting.
    #[arg(long = "select-db")]
    pub select_db: Option<u32>,
    /// An arbitrary command instead of SET/GET, e.g. "HSET __key__ f __data__" (repeatable;
    /// `__key__` and `__data__` are the key and value placeholders).
    #[arg(long = "command")]
    pub commands: Vec<String>,
    /// The weight of the --command before it (default 1).
    #[arg(long = "command-ratio")]
    pub command_ratios: Vec<String>,
    /// The key pattern of the --command before it: R, S, G or P (default R).
    #[arg(long = "command-key-pattern")]
    pub command_key_patterns: Vec<String>,
    /// Give up when no reply arrives for this many seconds (basalt-bench only).
    #[arg(long = "timeout", default_value_t = 10)]
    pub timeout: u64,
}

impl Args {
    /// Parses the command line as memtier does, where a `--command-ratio` or
    /// `--command-key-pattern` belongs to the `--command` before it: each of those lists is
    /// rewritten to hold one entry per command, empty where a command has none.
    pub fn parse_memtier<I: IntoIterator<Item = String>>(argv: I) -> Result<Args, clap::Error> {
        use clap::{CommandFactory, FromArgMatches};
        let matches = Args::command().try_get_matches_from(argv)?;
        let mut args = Args::from_arg_matches(&matches)?;
        let at = |id: &str| matches.indices_of(id).map(|i| i.collect::<Vec<_>>()).unwrap_or_default();
        let commands = at("commands");
        let pair = |id: &str, values: &[String]| -> Result<Vec<String>, clap::Error> {
            let mut per_command = vec![String::new(); commands.len()];
            for (value, index) in values.iter().zip(at(id)) {
                let owner = commands.iter().rposition(|&c| c < index).ok_or_else(|| {
                    Args::command().error(clap::error::ErrorKind::ArgumentConflict, format!("--{} '{value}' comes before any --command", id.replace('_', "-").trim_end_matches('s')))
                })?;
                per_command[owner] = value.clone();
            }
            Ok(per_command)
        };
        args.command_ratios = pair("command_ratios", &args.command_ratios)?;
        args.command_key_patterns = pair("command_key_patterns", &args.command_key_patterns)?;
        Ok(args)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Resp2,
    Resp3,
    MemcacheText,
}

#[derive(Clone, Debug)]
pub enum Auth {
    Password(String),
    User(String, String),
}

#[derive(Clone, Debug)]
pub struct TlsOptions {
    pub cert: Option<PathBuf>,
    pub key: Option<PathBuf>,
    pub cacert: Option<PathBuf>,
    pub skip_verify: bool,
    pub sni: String,
}

/// How a client issues its requests over time.
#[derive(Clone, Copy, Debug)]
pub enum Stop {
    Requests(u64),
    Seconds(u64),
}

/// Validated settings shared by every thread.
#[derive(Clone, Debug)]
pub struct Config {
    pub server: String,
    pub port: u16,
    pub auth: Option<Auth>,
    pub tls: Option<TlsOptions>,
    pub protocol: Protocol,
    pub threads: u32,
    pub clients: u32,
    pub stop: Stop,
    pub ratio: (u32, u32),
    pub pipeline: u32,
    pub sizes: DataSizes,
    pub random_data: bool,
    pub key_prefix: String,
    pub key_min: u64,
    pub key_max: u64,
    pub set_pattern: KeyPattern,
    pub get_pattern: KeyPattern,
    pub key_stddev: f64,
    pub key_median: f64,
    pub randomize: bool,
    pub distinct_client_seed: bool,
    pub hide_histogram: bool,
    pub percentiles: Vec<f64>,
    pub json_out_file: Option<PathBuf>,
    pub out_file: Option<PathBuf>,
    pub run_count: u32,
    pub rate_limit: Option<u64>,
    pub select_db: Option<u32>,
    pub timeout_secs: u64,
    /// `--command` templates; when any is given they are all that is sent.
    pub commands: Vec<CommandTemplate>,
    pub args: Args,
}

pub fn parse_protocol(name: &str) -> Result<Protocol, String> {
    match name {
        "redis" | "resp2" => Ok(Protocol::Resp2),
        "resp3" => Ok(Protocol::Resp3),
        "memcache_text" => Ok(Protocol::MemcacheText),
        "memcache_binary" => Err("protocol memcache_binary is not supported; use memcache_text".into()),
        other => Err(format!(
            "unknown protocol '{other}': supported are redis, resp2, resp3, memcache_text"
        )),
    }
}

pub fn parse_auth(value: &str) -> Auth {
    match value.split_once(':') {
        Some((user, pass)) if !user.is_empty() => Auth::User(user.to_string(), pass.to_string()),
        _ => Auth::Password(value.to_string()),
    }
}

fn parse_pair(value: &str, what: &str) -> Result<(u32, u32), String> {
    let (a, b) = value
        .split_once(':')
        .ok_or_else(|| format!("{what} must look like A:B, got '{value}'"))?;
    let a = a.trim().parse().map_err(|_| format!("{what}: '{a}' is not a number"))?;
    let b = b.trim().parse().map_err(|_| format!("{what}: '{b}' is not a number"))?;
    Ok((a, b))
}

fn parse_percentiles(value: &str) -> Result<Vec<f64>, String> {
    let mut out = Vec::new();
    for part in value.split(',').filter(|p| !p.trim().is_empty()) {
        let p: f64 = part
            .trim()
            .parse()
            .map_err(|_| format!("--print-percentiles: '{part}' is not a number"))?;
        if !(0.0..=100.0).contains(&p) {
            return Err(format!("--print-percentiles: {p} is outside 0..100"));
        }
        out.push(p);
    }
    if out.is_empty() {
        return Err("--print-percentiles needs at least one value".into());
    }
    Ok(out)
}

impl Config {
    pub fn from_args(args: Args) -> Result<Config, String> {
        let protocol = parse_protocol(&args.protocol)?;
        if args.threads == 0 || args.clients == 0 {
            return Err("--threads and --clients must be at least 1".into());
        }
        if args.threads > 1024 {
            return Err("--threads must be at most 1024".into());
        }
        if args.pipeline == 0 {
            return Err("--pipeline must be at least 1".into());
        }
        if args.run_count == 0 {
            return Err("--run-count must be at least 1".into());
        }
        if args.key_minimum > args.key_maximum {
            return Err("--key-minimum must not exceed --key-maximum".into());
        }
        let ratio = parse_pair(&args.ratio, "--ratio")?;
        if ratio == (0, 0) {
            return Err("--ratio 0:0 issues no requests".into());
        }
        let (set_p, get_p) = args
            .key_pattern
            .split_once(':')
            .ok_or_else(|| format!("--key-pattern must look like S:G, got '{}'", args.key_pattern))?;
        let set_pattern = KeyPattern::parse(set_p)?;
        let get_pattern = KeyPattern::parse(get_p)?;
        let sizes = DataSizes::from_flags(
            args.data_size,
            args.data_size_range.as_deref(),
            args.data_size_list.as_deref(),
            &args.data_size_pattern,
        )?;
        let connections = args.threads as u64 * args.clients as u64;
        let buffers = (sizes.max() as u64 + 4096) * connections;
        if sizes.max() as u64 > 512 * 1024 * 1024 || buffers > 8 << 30 {
            return Err(format!(
                "values of {} bytes on {connections} connections need {} MiB of value buffers; use smaller values or fewer connections",
                sizes.max(),
                buffers >> 20
            ));
        }
        if let Some(sd) = args.key_stddev {
            if !(sd.is_finite() && sd >= 0.0) {
                return Err("--key-stddev must be a number >= 0".into());
            }
        }
        if let Some(m) = args.key_median {
            if !(m >= args.key_minimum as f64 && m <= args.key_maximum as f64) {
                return Err("--key-median must lie between --key-minimum and --key-maximum".into());
            }
        }
        let stop = match (&args.requests, args.test_time) {
            (_, Some(0)) => return Err("--test-time must be at least 1 second".into()),
            (_, Some(secs)) => Stop::Seconds(secs),
            (Some(r), None) if r == "allkeys" => {
                let mut n = args.key_maximum - args.key_minimum;
                if args.key_pattern == "P:P" {
                    n = n / connections + 1;
                }
                let n = n.max(1);
                eprintln!("setting requests to {n}");
                Stop::Requests(n)
            }
            (Some(r), None) => {
                let n: u64 = r
                    .parse()
                    .map_err(|_| format!("--requests must be a number or allkeys, got '{r}'"))?;
                if n == 0 {
                    return Err("--requests must be at least 1".into());
                }
                Stop::Requests(n)
            }
            (None, None) => Stop::Requests(10_000),
        };
        let auth = match (&args.authenticate, &args.authenticate_file) {
            (Some(_), Some(_)) => return Err("give --authenticate or --authenticate-file, not both".into()),
            (Some(value), None) => Some(parse_auth(value)),
            (None, Some(file)) => {
                let text = std::fs::read_to_string(file)
                    .map_err(|e| format!("--authenticate-file {}: {e}", file.display()))?;
                Some(parse_auth(text.lines().next().unwrap_or("")))
            }
            (None, None) => None,
        };
        if protocol == Protocol::MemcacheText && auth.is_some() {
            return Err("--authenticate is not available with memcache_text".into());
        }
        let commands = parse_commands(&args.commands, &args.command_ratios, &args.command_key_patterns)?;
        if protocol == Protocol::MemcacheText && !commands.is_empty() {
            return Err("--command is not available with memcache_text".into());
        }
        if let Some(0) = args.rate_limiting {
            return Err("--rate-limiting must be at least 1 request per second".into());
        }
        let span = (args.key_maximum - args.key_minimum) as f64;
        let tls = args.tls.then(|| TlsOptions {
            cert: args.cert.clone(),
            key: args.key.clone(),
            cacert: args.cacert.clone(),
            skip_verify: args.tls_skip_verify,
            sni: args.sni.clone().unwrap_or_else(|| args.server.clone()),
        });
        Ok(Config {
            server: args.server.clone(),
            port: args.port,
            auth,
            tls,
            protocol,
            threads: args.threads,
            clients: args.clients,
            stop,
            ratio,
            pipeline: args.pipeline,
            sizes,
            random_data: args.random_data,
            key_prefix: args.key_prefix.clone(),
            key_min: args.key_minimum,
            key_max: args.key_maximum,
            set_pattern,
            get_pattern,
            key_stddev: args.key_stddev.unwrap_or(span / 6.0),
            key_median: args
                .key_median
                .unwrap_or(args.key_minimum as f64 + span / 2.0),
            randomize: args.randomize,
            distinct_client_seed: args.distinct_client_seed,
            hide_histogram: args.hide_histogram,
            percentiles: parse_percentiles(&args.print_percentiles)?,
            json_out_file: args.json_out_file.clone(),
            out_file: args.out_file.clone(),
            run_count: args.run_count,
            rate_limit: args.rate_limiting,
            select_db: args.select_db,
            timeout_secs: args.timeout.max(1),
            commands,
            args,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(extra: &[&str]) -> Result<Config, String> {
        let mut argv = vec!["basalt-bench"];
        argv.extend_from_slice(extra);
        Config::from_args(Args::parse_memtier(argv.into_iter().map(String::from)).map_err(|e| e.to_string())?)
    }

    #[test]
    fn a_command_ratio_belongs_to_the_command_before_it() {
        let c = config(&["--command=HSET __key__ f __data__", "--command=INCR __key__", "--command-ratio=3", "--command-key-pattern=S"]).unwrap();
        assert_eq!((c.commands[0].ratio, c.commands[0].key_pattern), (1, KeyPattern::Random));
        assert_eq!((c.commands[1].ratio, c.commands[1].key_pattern), (3, KeyPattern::Sequential));
        assert!(config(&["--command-ratio=2", "--command=GET __key__"]).is_err());
        assert!(config(&["--command=GET __key__", "-P", "memcache_text"]).is_err());
    }

    #[test]
    fn seed_command_parses_with_empty_prefix() {
        let c = config(&[
            "-s", "127.0.0.1", "-p", "7000", "-a", "user:pass", "-c", "4", "-t", "2", "-n", "20000",
            "--random-data", "--randomize", "--distinct-client-seed", "-d", "128",
            "--key-maximum=128000", "--key-minimum=1", "--key-prefix=", "--key-pattern=R:R",
            "--ratio=1:0", "--pipeline=32",
        ])
        .unwrap();
        assert_eq!(c.key_prefix, "");
        assert_eq!(c.ratio, (1, 0));
        assert_eq!(c.pipeline, 32);
        assert!(matches!(c.stop, Stop::Requests(20000)));
        assert!(matches!(c.auth, Some(Auth::User(ref u, ref p)) if u == "user" && p == "pass"));
    }

    #[test]
    fn allkeys_covers_the_range() {
        let c = config(&["-n", "allkeys", "--key-minimum=1", "--key-maximum=1000", "--key-pattern=P:P", "-c", "2", "-t", "2"]).unwrap();
        assert!(matches!(c.stop, Stop::Requests(250)));
    }

    #[test]
    fn authenticate_file_reads_the_first_line_and_excludes_authenticate() {
        let file = std::env::temp_dir().join(format!("basalt-bench-auth-{}", std::process::id()));
        std::fs::write(&file, "app:p@ss w:rd\n").unwrap();
        let path = format!("--authenticate-file={}", file.display());
        let c = config(&[&path]).unwrap();
        assert!(matches!(c.auth, Some(Auth::User(ref u, ref p)) if u == "app" && p == "p@ss w:rd"));
        assert!(config(&[&path, "-a", "x"]).is_err());
        assert!(config(&["--authenticate-file=/no/such/file"]).is_err());
        std::fs::remove_file(file).unwrap();
    }

    #[test]
    fn bad_values_are_errors() {
        assert!(config(&["--ratio=x"]).is_err());
        assert!(config(&["--key-pattern=Q:R"]).is_err());
        assert!(config(&["-P", "bogus"]).is_err());
        assert!(config(&["--key-minimum=5", "--key-maximum=1"]).is_err());
    }
}
