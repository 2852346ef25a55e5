//! `basalt-bench ycsb load|run` options: YCSB's own spelling (`-P workloads/workloada`,
//! `-p name=value`, `-threads N`, `-target N`, `-s`) and long flags (`--workload a`,
//! `--recordcount N`, `--threads N` ...). Later settings override earlier ones, as in YCSB.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::cli::{parse_auth, Auth, TlsOptions};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Load,
    Run,
}

#[derive(Clone, Debug)]
pub struct YcsbArgs {
    pub phase: Phase,
    pub props: BTreeMap<String, String>,
    pub threads: u32,
    pub target: Option<f64>,
    pub server: String,
    pub port: u16,
    pub auth: Option<Auth>,
    pub tls: Option<TlsOptions>,
    pub timeout_secs: u64,
    pub json_out_file: Option<PathBuf>,
    pub hide_histogram: bool,
    pub percentiles: Vec<f64>,
    pub seed: Option<u64>,
}

pub const USAGE: &str = "\
usage: basalt-bench ycsb load|run [redis] [options]
  --workload a|b|c|d|e|f     CoreWorkload preset (also -P workloads/workloadX or a properties file)
  -p NAME=VALUE              set a property (recordcount, operationcount, fieldcount, fieldlength,
                             requestdistribution=uniform|zipfian|latest, insertstart, insertcount,
                             readproportion, updateproportion, insertproportion, scanproportion,
                             readmodifywriteproportion, maxscanlength, redis.host, redis.port,
                             redis.password, redis.timeout (ms), redis.command_group=string|hash)
  --NAME VALUE               the same for any property above (e.g. --recordcount 100000)
  --command-group string|hash  SET/GET, or HMSET/HGETALL as YCSB's Redis binding
  -threads N, --threads N    client connections (default 1)
  -target N, --target N      total operations per second (default unlimited)
  -s                         status on stderr (always on)
  --server HOST, --host HOST, --port PORT, -a PASSWORD|USER:PASSWORD, --authenticate-file FILE,
  --tls, --cacert FILE,
  --tls-skip-verify, --sni NAME, --timeout SECS, --json-out-file FILE, --hide-histogram,
  --print-percentiles 50,95,99,99.9, --seed N";

const FLAG_PROPERTIES: &[&str] = &[
    "recordcount",
    "operationcount",
    "fieldcount",
    "fieldlength",
    "requestdistribution",
    "insertstart",
    "insertcount",
    "readproportion",
    "updateproportion",
    "insertproportion",
    "scanproportion",
    "readmodifywriteproportion",
    "maxscanlength",
    "zeropadding",
    "insertorder",
    "readallfields",
    "writeallfields",
];

/// CoreWorkload presets, as in YCSB's workloads/workloada..f.
pub fn preset(name: &str) -> Option<&'static [(&'static str, &'static str)]> {
    let letter = name.rsplit('/').next()?.trim_start_matches("workload");
    Some(match letter {
        "a" => &[("readproportion", "0.5"), ("updateproportion", "0.5"), ("scanproportion", "0"), ("insertproportion", "0"), ("requestdistribution", "zipfian")],
        "b" => &[("readproportion", "0.95"), ("updateproportion", "0.05"), ("scanproportion", "0"), ("insertproportion", "0"), ("requestdistribution", "zipfian")],
        "c" => &[("readproportion", "1"), ("updateproportion", "0"), ("scanproportion", "0"), ("insertproportion", "0"), ("requestdistribution", "zipfian")],
        "d" => &[("readproportion", "0.95"), ("updateproportion", "0"), ("scanproportion", "0"), ("insertproportion", "0.05"), ("requestdistribution", "latest")],
        "e" => &[("readproportion", "0"), ("updateproportion", "0"), ("scanproportion", "0.95"), ("insertproportion", "0.05"), ("requestdistribution", "zipfian"), ("maxscanlength", "100"), ("scanlengthdistribution", "uniform")],
        "f" => &[("readproportion", "0.5"), ("updateproportion", "0"), ("scanproportion", "0"), ("insertproportion", "0"), ("readmodifywriteproportion", "0.5"), ("requestdistribution", "zipfian")],
        _ => return None,
    })
}

fn load_workload(name: &str, props: &mut BTreeMap<String, String>) -> Result<(), String> {
    let path = std::path::Path::new(name);
    if path.is_file() {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            if let Some((k, v)) = line.split_once('=') {
                props.insert(k.trim().to_string(), v.trim().to_string());
            }
        }
        return Ok(());
    }
    let entries = preset(name).ok_or_else(|| format!("unknown workload '{name}': use a..f, workloads/workloadX or a properties file"))?;
    props.insert("recordcount".into(), "1000".into());
    props.insert("operationcount".into(), "1000".into());
    for (k, v) in entries {
        props.insert((*k).into(), (*v).into());
    }
    Ok(())
}

fn set_property(props: &mut BTreeMap<String, String>, kv: &str) -> Result<(), String> {
    let (k, v) = kv.split_once('=').ok_or_else(|| format!("-p expects NAME=VALUE, got '{kv}'"))?;
    props.insert(k.trim().to_string(), v.trim().to_string());
    Ok(())
}

fn number<T: std::str::FromStr>(name: &str, v: &str) -> Result<T, String> {
    v.trim().parse().map_err(|_| format!("{name}: '{v}' is not a valid number"))
}

pub fn parse(argv: &[String]) -> Result<YcsbArgs, String> {
    let mut it = argv.iter().skip(1).peekable();
    let phase = match it.next().map(String::as_str) {
        Some("load") => Phase::Load,
        Some("run") => Phase::Run,
        Some("-h") | Some("--help") | None => return Err(USAGE.into()),
        Some(other) => return Err(format!("expected load or run, got '{other}'\n{USAGE}")),
    };
    if matches!(it.peek().map(|s| s.as_str()), Some("redis") | Some("basalt")) {
        it.next();
    }
    let mut props = BTreeMap::new();
    let mut threads = 1u32;
    let mut target = None;
    let mut server = None;
    let mut port = None;
    let mut auth = None;
    let mut tls = false;
    let (mut cacert, mut skip_verify, mut sni) = (None, false, None);
    let mut timeout_secs = None;
    let mut json_out_file = None;
    let mut hide_histogram = false;
    let mut percentiles = vec![50.0, 95.0, 99.0, 99.9];
    let mut seed = None;
    // Presets first so that -p and flags given anywhere override them.
    let args: Vec<&String> = it.collect();
    let mut i = 0;
    while i < args.len() {
        if matches!(args[i].as_str(), "-P" | "--workload") {
            let v = args.get(i + 1).ok_or("-P/--workload needs a value")?;
            load_workload(v, &mut props)?;
            i += 1;
        } else if let Some(v) = args[i].strip_prefix("--workload=") {
            load_workload(v, &mut props)?;
        }
        i += 1;
    }
    let mut i = 0;
    while i < args.len() {
        let raw = args[i].as_str();
        let (flag, inline) = match raw.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (raw, None),
        };
        let takes_value = !matches!(flag, "-s" | "--tls" | "--tls-skip-verify" | "--hide-histogram" | "-h" | "--help");
        let value = if takes_value && inline.is_none() {
            i += 1;
            Some(args.get(i).map(|s| s.to_string()).ok_or_else(|| format!("{flag} needs a value"))?)
        } else {
            inline
        };
        let v = value.clone().unwrap_or_default();
        match flag {
            "-P" | "--workload" => {}
            "-p" | "--property" => set_property(&mut props, &v)?,
            "-threads" | "--threads" => threads = number("threads", &v)?,
            "-target" | "--target" => target = Some(number::<f64>("target", &v)?),
            "-s" => {}
            "-h" | "--help" => return Err(USAGE.into()),
            "--server" | "--host" => server = Some(v),
            "--port" => port = Some(number::<u16>("port", &v)?),
            "-a" | "--authenticate" => auth = Some(parse_auth(&v)),
            // The same from a file's first line: a password in argv is visible in the process list.
            "--authenticate-file" => {
                let text = std::fs::read_to_string(&v).map_err(|e| format!("--authenticate-file {v}: {e}"))?;
                auth = Some(parse_auth(text.lines().next().unwrap_or("")));
            }
            "--tls" => tls = true,
            "--cacert" => cacert = Some(PathBuf::from(v)),
            "--tls-skip-verify" => skip_verify = true,
            "--sni" => sni = Some(v),
            "--timeout" => timeout_secs = Some(number::<u64>("timeout", &v)?),
            "--json-out-file" => json_out_file = Some(PathBuf::from(v)),
            "--hide-histogram" => hide_histogram = true,
            "--print-percentiles" => {
                percentiles = v.split(',').map(|p| number::<f64>("print-percentiles", p)).collect::<Result<_, _>>()?;
            }
            "--seed" => seed = Some(number::<u64>("seed", &v)?),
            "--command-group" | "--command_group" => {
                props.insert("redis.command_group".into(), v);
            }
            f if f.starts_with("--") && FLAG_PROPERTIES.contains(&&f[2..]) => {
                props.insert(f[2..].to_string(), v);
            }
            f => return Err(format!("unknown option '{f}'\n{USAGE}")),
        }
        i += 1;
    }
    if threads == 0 || threads > 100_000 {
        return Err("threads must be between 1 and 100000".into());
    }
    if let Some(t) = target {
        if t <= 0.0 {
            return Err("target must be above 0".into());
        }
    }
    let server = server.or_else(|| props.get("redis.host").cloned()).unwrap_or_else(|| "127.0.0.1".into());
    let port = match port {
        Some(p) => p,
        None => props.get("redis.port").map(|p| number::<u16>("redis.port", p)).transpose()?.unwrap_or(6379),
    };
    let auth = auth.or_else(|| props.get("redis.password").map(|p| parse_auth(p)));
    let timeout_secs = match timeout_secs {
        Some(t) => t,
        None => props
            .get("redis.timeout")
            .map(|ms| number::<u64>("redis.timeout", ms))
            .transpose()?
            .map(|ms| ms.div_ceil(1000))
            .unwrap_or(10),
    }
    .max(1);
    let tls = tls.then(|| TlsOptions { cert: None, key: None, cacert, skip_verify, sni: sni.unwrap_or_else(|| server.clone()) });
    Ok(YcsbArgs { phase, props, threads, target, server, port, auth, tls, timeout_secs, json_out_file, hide_histogram, percentiles, seed })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        std::iter::once("ycsb").chain(s.split_whitespace()).map(String::from).collect()
    }

    #[test]
    fn ycsb_style_command_line() {
        let a = parse(&argv("run redis -s -P workloads/workloadc -p redis.host=127.0.0.1 -p redis.port=7001 -p recordcount=500 -p requestdistribution=uniform -p redis.command_group=string -threads 8")).unwrap();
        assert_eq!(a.phase, Phase::Run);
        assert_eq!(a.port, 7001);
        assert_eq!(a.threads, 8);
        assert_eq!(a.props["recordcount"], "500");
        assert_eq!(a.props["requestdistribution"], "uniform");
        assert_eq!(a.props["readproportion"], "1");
    }

    #[test]
    fn authenticate_file_reads_the_first_line() {
        let file = std::env::temp_dir().join(format!("basalt-ycsb-auth-{}", std::process::id()));
        std::fs::write(&file, "app:pw d\n").unwrap();
        let a = parse(&argv(&format!("run --workload c --authenticate-file={}", file.display()))).unwrap();
        assert!(matches!(a.auth, Some(Auth::User(ref u, ref p)) if u == "app" && p == "pw d"));
        assert!(parse(&argv("run --authenticate-file=/no/such/file")).is_err());
        std::fs::remove_file(file).unwrap();
    }

    #[test]
    fn long_flags_override_the_preset() {
        let a = parse(&argv("load --recordcount 42 --workload a --fieldcount=3 --port 7002 --target 100")).unwrap();
        assert_eq!(a.props["recordcount"], "42");
        assert_eq!(a.props["fieldcount"], "3");
        assert_eq!(a.target, Some(100.0));
        assert!(parse(&argv("run --workload z")).is_err());
        assert!(parse(&argv("walk")).is_err());
    }
}
