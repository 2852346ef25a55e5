//! The `basalt-rdb` command line: `import`, `export` and `check`.

use basalt_rdb::{export, import, ExportOptions, ImportOptions, Item, Limits, Reader};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

const USAGE: &str = "usage:
  basalt-rdb import <dump.rdb> --data-dir <dir> [--databases N] [--encryption-key-file FILE]
                    [--max-rdb-bytes SIZE] [--maxmemory SIZE] [--skip-functions]
  basalt-rdb export --data-dir <dir> --out <file.rdb> [--databases N] [--encryption-key-file FILE]
                    [--maxmemory SIZE]
  basalt-rdb check <dump.rdb> [--max-rdb-bytes SIZE]
SIZE is bytes or with a unit: 512mb, 4gb (default --max-rdb-bytes 4gb, --maxmemory 1gb).";

/// The flags every subcommand may take, as given.
#[derive(Default)]
struct Args {
    positional: Vec<String>,
    data_dir: Option<PathBuf>,
    out: Option<PathBuf>,
    databases: Option<usize>,
    key_file: Option<PathBuf>,
    max_rdb_bytes: Option<u64>,
    maxmemory: Option<u64>,
    skip_functions: bool,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--data-dir" => a.data_dir = Some(PathBuf::from(value(arg)?)),
            "--out" => a.out = Some(PathBuf::from(value(arg)?)),
            "--databases" => {
                let v = value(arg)?;
                a.databases = Some(v.parse().ok().filter(|n| (1..=65536).contains(n)).ok_or(format!("--databases must be 1 to 65536, not {v:?}"))?)
            }
            "--encryption-key-file" => a.key_file = Some(PathBuf::from(value(arg)?)),
            "--max-rdb-bytes" => a.max_rdb_bytes = Some(size(&value(arg)?)?),
            "--maxmemory" => a.maxmemory = Some(size(&value(arg)?)?),
            "--skip-functions" => a.skip_functions = true,
            flag if flag.starts_with("--") => return Err(format!("unknown flag {flag}")),
            _ => a.positional.push(arg.clone()),
        }
    }
    Ok(a)
}

/// Bytes, or a number with kb/mb/gb (also k/m/g), as basalt-server's `maxmemory`.
fn size(text: &str) -> Result<u64, String> {
    let lower = text.to_ascii_lowercase();
    let digits = lower.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = match &lower[digits.len()..] {
        "" | "b" => 1u64,
        "k" | "kb" => 1 << 10,
        "m" | "mb" => 1 << 20,
        "g" | "gb" => 1 << 30,
        _ => return Err(format!("{text:?} is not a size (bytes, or kb/mb/gb)")),
    };
    digits.parse::<u64>().ok().and_then(|n| n.checked_mul(unit)).ok_or_else(|| format!("{text:?} is not a size (bytes, or kb/mb/gb)"))
}

fn cipher(a: &Args) -> Result<Option<Arc<basalt_storage::Cipher>>, String> {
    a.key_file
        .as_deref()
        .map(|p| basalt_storage::Cipher::from_key_file(p).map(Arc::new).map_err(|e| format!("encryption key: {e}")))
        .transpose()
}

fn run(cmd: &str, a: Args) -> Result<(), String> {
    match cmd {
        "import" => {
            let [rdb] = a.positional.as_slice() else { return Err("import takes one RDB file".into()) };
            let dir = a.data_dir.clone().ok_or("import needs --data-dir")?;
            let mut opts = ImportOptions::new(rdb, dir);
            opts.databases = a.databases.unwrap_or(opts.databases);
            opts.max_rdb_bytes = a.max_rdb_bytes.unwrap_or(opts.max_rdb_bytes);
            opts.maxmemory = a.maxmemory.unwrap_or(opts.maxmemory);
            opts.skip_functions = a.skip_functions;
            opts.cipher = cipher(&a)?;
            let r = import(&opts).map_err(|e| e.to_string())?;
            let per_db: Vec<String> = r.keys.iter().map(|(db, n)| format!("db{db}={n}")).collect();
            println!(
                "imported {} keys ({}) from {} bytes of RDB version {} in {:.2}s; skipped {} expired, {} empty, {} function libraries",
                r.total_keys(),
                per_db.join(" "),
                r.rdb_bytes,
                r.rdb_version,
                r.seconds,
                r.expired_skipped,
                r.empty_skipped,
                r.functions_skipped
            );
            Ok(())
        }
        "export" => {
            if !a.positional.is_empty() {
                return Err("export takes no positional argument".into());
            }
            let dir = a.data_dir.clone().ok_or("export needs --data-dir")?;
            let out = a.out.clone().ok_or("export needs --out")?;
            let mut opts = ExportOptions::new(dir, out);
            opts.databases = a.databases.unwrap_or(opts.databases);
            opts.maxmemory = a.maxmemory.unwrap_or(opts.maxmemory);
            opts.cipher = cipher(&a)?;
            let r = export(&opts).map_err(|e| e.to_string())?;
            let per_db: Vec<String> = r.keys.iter().map(|(db, n)| format!("db{db}={n}")).collect();
            println!("exported {} keys ({}) as {} bytes in {:.2}s", r.keys.values().sum::<u64>(), per_db.join(" "), r.rdb_bytes, r.seconds);
            Ok(())
        }
        "check" => {
            let [rdb] = a.positional.as_slice() else { return Err("check takes one RDB file".into()) };
            let file = std::fs::File::open(rdb).map_err(|e| format!("open {rdb}: {e}"))?;
            let limits = Limits { max_file_bytes: a.max_rdb_bytes.unwrap_or(Limits::default().max_file_bytes), ..Limits::default() };
            let mut reader = Reader::new(file, limits).map_err(|e| e.to_string())?;
            let (mut keys, mut functions) = (0u64, 0u64);
            while let Some(item) = reader.next_item().map_err(|e| e.to_string())? {
                match item {
                    Item::Key(_) => keys += 1,
                    Item::Function { .. } => functions += 1,
                    _ => {}
                }
            }
            println!("ok: RDB version {}, {} keys, {} function libraries, {} bytes, checksum verified", reader.version(), keys, functions, reader.offset());
            Ok(())
        }
        other => Err(format!("unknown command {other:?}")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    if cmd == "-h" || cmd == "--help" {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let parsed = match parse(&args[1..]) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("basalt-rdb: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(cmd, parsed) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("basalt-rdb {cmd}: {e}");
            ExitCode::FAILURE
        }
    }
}
