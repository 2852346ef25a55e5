//! A unique empty directory per test, so tests running at once never share data files.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// A unique empty directory under the system temp dir, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        // The process id keeps test binaries apart, the counter keeps tests in one binary apart.
        static CREATED: AtomicU64 = AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "basalt-server-{tag}-{}-{}",
            std::process::id(),
            CREATED.fetch_add(1, Ordering::Relaxed)
        ));
        // A directory left by an earlier run that reused this process id starts empty again.
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
