//! `basalt-rdb export`: a Basalt data dir into an RDB file Redis 7.0 loads. The dir is opened
//! offline (its lock keeps a running server out, and this out of a running server's dir) with
//! compaction and the active expiry sweep off, so nothing is rewritten; keys expired by now
//! are left out. The file is written beside its name and renamed there once complete.

use crate::tool_error::ToolError;
use crate::writer::Writer;
use basalt_storage::{Cipher, Db};
use std::collections::BTreeMap;
use std::io::BufWriter;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

const SCAN_PAGE: usize = 1000;

#[derive(Debug, Clone)]
pub struct ExportOptions {
    pub data_dir: PathBuf,
    pub out: PathBuf,
    /// basalt-server's `databases` for this dir (16 by default).
    pub databases: usize,
    pub cipher: Option<Arc<Cipher>>,
    /// Bytes of values kept in memory while exporting (0: no bound).
    pub maxmemory: u64,
}

impl ExportOptions {
    pub fn new(data_dir: impl Into<PathBuf>, out: impl Into<PathBuf>) -> ExportOptions {
        ExportOptions { data_dir: data_dir.into(), out: out.into(), databases: 16, cipher: None, maxmemory: 1 << 30 }
    }
}

#[derive(Debug, Clone, Default)]
pub struct ExportReport {
    pub keys: BTreeMap<u64, u64>,
    pub rdb_bytes: u64,
    pub seconds: f64,
}

pub fn export(opts: &ExportOptions) -> Result<ExportReport, ToolError> {
    let started = Instant::now();
    if !opts.data_dir.is_dir() {
        return Err(ToolError::Refused(format!("data dir {} does not exist", opts.data_dir.display())));
    }
    let db = crate::data_dir::open(&opts.data_dir, opts.databases, opts.cipher.clone(), opts.maxmemory)?;
    db.set_active_expire(false);
    let tmp = opts.out.with_file_name(format!(
        ".{}.tmp-{}",
        opts.out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        std::process::id()
    ));
    let file = std::fs::File::create(&tmp).map_err(|e| ToolError::io(format!("create {}", tmp.display()), e))?;
    let written = write_all(&db, BufWriter::with_capacity(1 << 20, file));
    let (report, file) = match written {
        Ok(done) => done,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
    };
    drop(db);
    let finish = || -> std::io::Result<()> {
        file.sync_all()?;
        std::fs::rename(&tmp, &opts.out)?;
        let parent = opts.out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
        std::fs::File::open(parent)?.sync_all()
    };
    finish().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        ToolError::io(format!("write {}", opts.out.display()), e)
    })?;
    Ok(ExportReport { seconds: started.elapsed().as_secs_f64(), ..report })
}

fn write_all(db: &Db, out: BufWriter<std::fs::File>) -> Result<(ExportReport, std::fs::File), ToolError> {
    let mut w = Writer::new(out)?;
    let mut report = ExportReport::default();
    for index in 0..db.databases() {
        let ks = db.keyspace(index);
        if ks.is_empty() {
            continue;
        }
        w.select_db(index as u64, ks.len(), ks.expires())?;
        let mut cursor = 0;
        loop {
            let page = ks.scan(cursor, SCAN_PAGE);
            for (key, _) in &page.keys {
                // A key that expired since the scan saw it reads as missing.
                if let Some(entry) = ks.read(key, |e| e.cloned())? {
                    w.key(key, &entry.value, entry.expires_at_ms)?;
                    *report.keys.entry(index as u64).or_default() += 1;
                }
            }
            cursor = page.cursor;
            if cursor == 0 {
                break;
            }
        }
    }
    let out = w.finish()?;
    report.rdb_bytes = out.get_ref().metadata().map(|m| m.len()).unwrap_or(0);
    let file = out.into_inner().map_err(|e| ToolError::io("write the RDB", e.into_error()))?;
    Ok((report, file))
}
