//! Settings: defaults, then the TOML file (`--config FILE`), then command-line flags.
//!
//! Every flag has a key of the same name in the file:
//! ```toml
//! bind = "127.0.0.1"
//! port = 6379
//! dir = "./data"
//! fsync = "everysec"    # always | everysec | no
//! maxmemory = "256mb"   # bytes, or with a unit: kb, mb, gb (also 1k, 1m, 1g as in redis.conf)
//! threads = 2           # network threads; default: one per core but one, at least one
//! databases = 16        # logical databases, SELECT 0..databases-1
//! ```

use basalt_storage::Fsync;
use serde::Deserialize;
use std::fmt;
use std::path::PathBuf;

#[derive(Debug, Clone)]
pub struct Config {
    pub bind: String,
    pub port: u16,
    pub dir: PathBuf,
    pub fsync: Fsync,
    /// Bytes; 0 means no limit.
    pub maxmemory: u64,
    pub threads: usize,
    /// Logical databases (Redis' `databases`), fixed at start.
    pub databases: usize,
    /// `lua-time-limit`: ms a script runs before other commands answer BUSY (CONFIG SET).
    pub lua_time_limit_ms: u64,
    /// notify-keyspace-events as `notify::parse` reads it (0: none, the default).
    pub notify_keyspace_events: u32,
    /// `slowlog-log-slower-than` (µs; negative: off) and `slowlog-max-len` (CONFIG SET too).
    pub slowlog_log_slower_than_us: i64,
    pub slowlog_max_len: u64,
    /// What OBJECT ENCODING reports (CONFIG SET at run time).
    pub encodings: crate::encoding::Thresholds,
    /// The file the settings were read from, if any (`INFO server` reports it).
    pub config_file: Option<PathBuf>,
    /// The `[security]` table (issue 3), kept by owner (`security_table.rs` routes its keys):
    /// users and allowlist,
    pub access: crate::access_config::AccessConfig,
    /// TLS, memcached and admin ports,
    pub listeners: crate::listeners_config::ListenersConfig,
    /// connection limits,
    pub limits: crate::limits_config::LimitsConfig,
    /// and encryption at rest.
    pub at_rest: crate::at_rest::AtRestConfig,
    /// Primary/replica settings (issue 15): the `[replication]` table.
    pub replication: crate::replication::config::ReplicationConfig,
    /// Archiving and the backup key (issue 44): the `[backup]` table.
    pub backup: crate::backup_config::BackupConfig,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: "127.0.0.1".to_string(),
            port: 6379,
            dir: PathBuf::from("./data"),
            fsync: Fsync::EverySec,
            maxmemory: 0,
            threads: threads_for(std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)),
            databases: 16,
            lua_time_limit_ms: crate::scripting::BUSY_AFTER_MS,
            notify_keyspace_events: 0,
            slowlog_log_slower_than_us: crate::slowlog::DEFAULT_SLOWER_THAN_US,
            slowlog_max_len: crate::slowlog::DEFAULT_MAX_LEN,
            encodings: Default::default(),
            config_file: None,
            access: Default::default(),
            listeners: Default::default(),
            limits: Default::default(),
            at_rest: Default::default(),
            replication: Default::default(),
            backup: Default::default(),
        }
    }
}

#[derive(Debug)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

/// What the TOML file may hold; unknown keys are an error so that typos do not pass silently.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    bind: Option<String>,
    port: Option<u16>,
    dir: Option<PathBuf>,
    fsync: Option<String>,
    maxmemory: Option<MemoryValue>,
    threads: Option<usize>,
    databases: Option<usize>,
    #[serde(rename = "slowlog-log-slower-than")]
    slowlog_log_slower_than: Option<i64>,
    #[serde(rename = "slowlog-max-len")]
    slowlog_max_len: Option<u64>,
    security: Option<toml::Table>,
    replication: Option<toml::Table>,
    backup: Option<toml::Table>,
}

#[derive(Deserialize, Debug)]
#[serde(untagged)]
enum MemoryValue {
    Bytes(u64),
    Text(String),
}

pub const USAGE: &str = "Usage: basalt-server [--config FILE] [--bind ADDR] [--port N] [--dir PATH] \
[--fsync always|everysec|no] [--maxmemory BYTES] [--threads N] [--databases N] | -v";

/// Redis' memory notation: `1000`, `1k` (1000), `1kb` (1024), `1m`, `1mb`, `1g`, `1gb`.
pub fn parse_memory(text: &str) -> Option<u64> {
    let lower = text.trim().to_ascii_lowercase();
    let digits_end = lower.find(|c: char| !c.is_ascii_digit()).unwrap_or(lower.len());
    let (number, unit) = lower.split_at(digits_end);
    let number: u64 = number.parse().ok()?;
    let multiplier: u64 = match unit {
        "" | "b" => 1,
        "k" => 1000,
        "kb" => 1024,
        "m" => 1000 * 1000,
        "mb" => 1024 * 1024,
        "g" => 1000 * 1000 * 1000,
        "gb" => 1024 * 1024 * 1024,
        _ => return None,
    };
    number.checked_mul(multiplier)
}

pub fn parse_fsync(text: &str) -> Result<Fsync, ConfigError> {
    text.parse::<Fsync>().map_err(ConfigError)
}

fn parse_databases(text: &str) -> Result<usize, ConfigError> {
    match text.parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(ConfigError(format!("databases must be a number from 1 to 1024, not {text:?}"))),
    }
}

/// Network threads by default: one per core but one, at least one. The core left is for the
/// kernel's network work, the log thread and whatever shares the machine, as Redis advises for
/// its io-threads. On 2 cores shared with a benchmark client (issue 17's speed table, 19:21
/// and 19:41 UTC) a second thread left the client's threads waiting for a core: p99 within
/// 1.2x Redis's on 14 of 24 rows with 2 threads, 22 of 24 with 1; ops/s at least 0.95x on 21
/// and 19. bench/README.md, "Tail latency on two shared cores".
pub fn threads_for(cores: usize) -> usize {
    cores.saturating_sub(1).max(1)
}

fn parse_threads(text: &str) -> Result<usize, ConfigError> {
    match text.parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(ConfigError(format!("threads must be a number from 1 to 1024, not {text:?}"))),
    }
}

impl Config {
    /// Reads `--config FILE` first, then lets the other flags override the file.
    pub fn from_args<I: IntoIterator<Item = String>>(args: I) -> Result<Config, ConfigError> {
        let args: Vec<String> = args.into_iter().collect();
        let mut pairs = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let arg = &args[i];
            if arg == "-h" || arg == "--help" {
                return Err(ConfigError(format!(
                    "{USAGE}\n       {}\n       {}\n       {}",
                    crate::security_table::USAGE,
                    crate::replication::config::USAGE,
                    crate::backup_config::USAGE
                )));
            }
            let Some(name) = arg.strip_prefix("--") else {
                return Err(ConfigError(format!("unexpected argument {arg:?}\n{USAGE}")));
            };
            let (name, value) = match name.split_once('=') {
                Some((n, v)) => (n.to_string(), v.to_string()),
                None => {
                    i += 1;
                    let value =
                        args.get(i).ok_or_else(|| ConfigError(format!("--{name} needs a value\n{USAGE}")))?;
                    (name.to_string(), value.clone())
                }
            };
            pairs.push((name, value));
            i += 1;
        }
        let mut config = Config::default();
        if let Some((_, file)) = pairs.iter().find(|(n, _)| n == "config") {
            config.apply_file(&PathBuf::from(file))?;
        }
        for (name, value) in &pairs {
            if name != "config" {
                config.apply_flag(name, value)?;
            }
        }
        Ok(config)
    }

    fn apply_file(&mut self, path: &PathBuf) -> Result<(), ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError(format!("cannot read config file {}: {e}", path.display())))?;
        let file: FileConfig = toml::from_str(&text)
            .map_err(|e| ConfigError(format!("config file {}: {e}", path.display())))?;
        if let Some(bind) = file.bind {
            self.bind = bind;
        }
        if let Some(port) = file.port {
            self.port = port;
        }
        if let Some(dir) = file.dir {
            self.dir = dir;
        }
        if let Some(fsync) = file.fsync {
            self.fsync = parse_fsync(&fsync)?;
        }
        match file.maxmemory {
            Some(MemoryValue::Bytes(n)) => self.maxmemory = n,
            Some(MemoryValue::Text(t)) => {
                self.maxmemory =
                    parse_memory(&t).ok_or_else(|| ConfigError(format!("maxmemory: not a memory size: {t:?}")))?
            }
            None => {}
        }
        if let Some(threads) = file.threads {
            self.threads = parse_threads(&threads.to_string())?;
        }
        if let Some(databases) = file.databases {
            self.databases = parse_databases(&databases.to_string())?;
        }
        if let Some(us) = file.slowlog_log_slower_than {
            self.slowlog_log_slower_than_us = us;
        }
        if let Some(len) = file.slowlog_max_len {
            self.slowlog_max_len = len;
        }
        if let Some(table) = &file.security {
            self.apply_security_table(table).map_err(|e| ConfigError(format!("config file {}: {e}", path.display())))?;
        }
        if let Some(table) = &file.backup {
            self.backup.apply_table(table).map_err(|e| ConfigError(format!("config file {}: {e}", path.display())))?;
        }
        if let Some(table) = &file.replication {
            self.replication.apply_table(table).map_err(|e| ConfigError(format!("config file {}: {e}", path.display())))?;
        }
        self.config_file = Some(path.clone());
        Ok(())
    }

    fn apply_flag(&mut self, name: &str, value: &str) -> Result<(), ConfigError> {
        match name {
            "bind" => self.bind = value.to_string(),
            "port" => {
                self.port = value.parse().map_err(|_| ConfigError(format!("port must be 0-65535, not {value:?}")))?
            }
            "dir" => self.dir = PathBuf::from(value),
            "fsync" => self.fsync = parse_fsync(value)?,
            "maxmemory" => {
                self.maxmemory =
                    parse_memory(value).ok_or_else(|| ConfigError(format!("maxmemory: not a memory size: {value:?}")))?
            }
            "threads" => self.threads = parse_threads(value)?,
            "databases" => self.databases = parse_databases(value)?,
            "slowlog-log-slower-than" => {
                self.slowlog_log_slower_than_us =
                    value.parse().map_err(|_| ConfigError(format!("slowlog-log-slower-than must be an integer, not {value:?}")))?
            }
            "slowlog-max-len" => {
                self.slowlog_max_len =
                    value.parse().map_err(|_| ConfigError(format!("slowlog-max-len must be a non-negative integer, not {value:?}")))?
            }
            other => {
                if self.replication.apply(other, value, false).map_err(ConfigError)? {
                    return Ok(());
                }
                if self.backup.apply(other, value).map_err(ConfigError)? {
                    return Ok(());
                }
                if !self.apply_security(other, value).map_err(ConfigError)? {
                    return Err(ConfigError(format!("unknown option --{other}\n{USAGE}")));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn flags_override_file() {
        let dir = std::env::temp_dir().join(format!("basalt-config-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("basalt.toml");
        std::fs::write(&file, "port = 7000\nfsync = \"always\"\nmaxmemory = \"1mb\"\nthreads = 3\n").unwrap();
        let c = Config::from_args(args(&["--config", file.to_str().unwrap(), "--port", "7001"])).unwrap();
        assert_eq!(c.port, 7001);
        assert_eq!(c.fsync, Fsync::Always);
        assert_eq!(c.maxmemory, 1024 * 1024);
        assert_eq!(c.threads, 3);
        assert_eq!([1, 2, 4, 16].map(threads_for), [1, 1, 3, 15]);
        std::fs::write(&file, "prot = 1\n").unwrap();
        assert!(Config::from_args(args(&["--config", file.to_str().unwrap()])).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_flags_are_errors() {
        assert!(Config::from_args(args(&["--fsync", "sometimes"])).is_err());
        assert!(Config::from_args(args(&["--port"])).is_err());
        assert!(Config::from_args(args(&["--maxmemory", "12xb"])).is_err());
        assert_eq!(Config::from_args(args(&["--maxmemory=2g"])).unwrap().maxmemory, 2_000_000_000);
    }
}
