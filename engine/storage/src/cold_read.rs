//! Reading a cold value back from the log without holding the caller's thread behind the
//! device: the read is first tried on the kernel's page cache alone (`preadv2` with
//! `RWF_NOWAIT`, which answers EAGAIN instead of waiting for the disk); only when some of
//! its bytes are not there does it run inside [`Options::blocking_io`](crate::Options), which
//! the server sets to tokio's `block_in_place`, so the network thread's other connections
//! move to another thread while this one waits. A read from the page cache (the common case
//! when the host has memory to spare) costs what it cost before.
//!
//! Why: with the page cache emptied before each run (engine/bench/scripts/
//! larger-than-memory.sh, `DROP_CACHES=1`) zipfian reads, 57 % of them from memory, were no
//! faster than uniform ones at 25 %, as if the reads waiting for the device held up the
//! rest. This did not change those figures measurably (the page cache refills within each
//! run; engine/bench/README); it is for data larger than the host's page cache.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::os::unix::io::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// Runs a section that may block its thread for long (a read that waits for the device).
pub type BlockingIo = fn(&mut dyn FnMut());

/// The default [`BlockingIo`]: the section runs on the calling thread as it is.
pub fn inline(section: &mut dyn FnMut()) {
    section()
}

/// Set once the kernel or the file system refuses `RWF_NOWAIT`: reads then go straight to
/// `pread`, as before.
static NOWAIT_REFUSED: AtomicBool = AtomicBool::new(false);

/// Reads `buf.len()` bytes of `file` at `off`: from the page cache if they are all there,
/// else inside `blocking`.
pub(crate) fn read_at(file: &File, buf: &mut [u8], off: u64, blocking: BlockingIo) -> io::Result<()> {
    if NOWAIT_REFUSED.load(Relaxed) {
        return file.read_exact_at(buf, off);
    }
    match read_cached(file, buf, off) {
        Ok(n) if n == buf.len() => return Ok(()),
        // Some bytes not in the page cache (a short read), or none (EAGAIN): the read waits.
        Ok(_) => {}
        Err(e) if e.raw_os_error() == Some(libc::EAGAIN) => {}
        Err(e) if matches!(e.raw_os_error(), Some(libc::EOPNOTSUPP | libc::EINVAL | libc::ENOSYS)) => {
            NOWAIT_REFUSED.store(true, Relaxed);
            return file.read_exact_at(buf, off);
        }
        Err(e) => return Err(e),
    }
    let mut result = Ok(());
    blocking(&mut || result = file.read_exact_at(buf, off));
    result
}

/// One `preadv2(RWF_NOWAIT)`: the bytes the page cache had, from the start of `buf`.
fn read_cached(file: &File, buf: &mut [u8], off: u64) -> io::Result<usize> {
    let iov = libc::iovec { iov_base: buf.as_mut_ptr().cast(), iov_len: buf.len() };
    // SAFETY: `iov` points into `buf`, valid for writes of its length for the whole call.
    let n = unsafe { libc::preadv2(file.as_raw_fd(), &iov, 1, off as libc::off_t, libc::RWF_NOWAIT) };
    if n < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(n as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::atomic::AtomicUsize;

    static SECTIONS: AtomicUsize = AtomicUsize::new(0);

    fn counted(section: &mut dyn FnMut()) {
        SECTIONS.fetch_add(1, Relaxed);
        section()
    }

    /// Bytes out of the page cache are read inside the blocking section; once they are back
    /// in it, on the calling thread alone.
    #[test]
    fn only_reads_that_wait_for_the_device_run_in_the_blocking_section() {
        let dir = std::env::temp_dir();
        let data: Vec<u8> = (0..64 * 1024).map(|i| (i % 251) as u8).collect();
        let written = |name: &str| {
            let path = dir.join(format!("basalt-cold-read-{name}-{}", std::process::id()));
            let mut file = File::create(&path).unwrap();
            file.write_all(&data).unwrap();
            file.sync_all().unwrap();
            (File::open(&path).unwrap(), path)
        };
        let (file, path) = written("read");
        // `RWF_NOWAIT` does not wait for the device but starts the read, and this host's
        // virtual disk can answer before the call returns; then the bytes come back without
        // the blocking section, as they should. A C probe (DONTNEED, mincore saying the page
        // left, preadv2 RWF_NOWAIT) found that so for every one of 20 tries in 1 process in
        // ~30, for none in the others. So each try first asks the kernel itself, on a file of
        // its own, whether a cold read waits here.
        let (probe, probe_path) = written("probe");
        let drop_cache = |f: &File| {
            // Clean pages leave the page cache on this advice.
            assert_eq!(unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) }, 0);
        };
        let mut buf = vec![0u8; 4096];
        let (mut kernel_waited, mut sections) = (0, 0);
        for _ in 0..20 {
            drop_cache(&probe);
            drop_cache(&file);
            if matches!(read_cached(&probe, &mut buf, 8192), Err(e) if e.raw_os_error() == Some(libc::EAGAIN)) {
                kernel_waited += 1;
            }
            let before = SECTIONS.load(Relaxed);
            read_at(&file, &mut buf, 8192, counted).unwrap();
            assert_eq!(buf, data[8192..8192 + 4096]);
            sections += SECTIONS.load(Relaxed) - before;
        }
        let after_cold = SECTIONS.load(Relaxed);
        read_at(&file, &mut buf, 8192, counted).unwrap();
        assert_eq!(buf, data[8192..8192 + 4096]);
        let after_warm = SECTIONS.load(Relaxed);
        std::fs::remove_file(&path).unwrap();
        std::fs::remove_file(&probe_path).unwrap();
        if NOWAIT_REFUSED.load(Relaxed) {
            return; // this file system reads the old way: nothing to tell apart
        }
        assert_eq!(after_warm, after_cold, "the read from the page cache ran on the calling thread");
        if kernel_waited >= 10 {
            assert!(sections >= 1, "cold reads that had to wait ({kernel_waited} of 20 probes) ran in the blocking section");
        } else {
            eprintln!("the disk answered {} of 20 cold probes within RWF_NOWAIT: too few waits to tell", 20 - kernel_waited);
        }
    }
}
