//! The open-files limit: every client is a descriptor, and a soft limit of 1024 would cap the
//! server at about a thousand connections. Redis raises it at start; so does basalt-server.

/// Raises the soft RLIMIT_NOFILE to the hard limit; returns the soft limit now in force.
pub fn raise() -> u64 {
    // SAFETY: getrlimit/setrlimit only read and write the struct passed by pointer.
    unsafe {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 0;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                return raised.rlim_cur;
            }
        }
        limit.rlim_cur
    }
}
