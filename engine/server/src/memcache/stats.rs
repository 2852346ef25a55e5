//! `stats`: the general figures memcached clients and dashboards read.

use super::McStats;
use crate::server::Shared;
use std::sync::atomic::Ordering::Relaxed;

pub fn write(shared: &Shared, stats: &McStats, group: Option<&[u8]>, out: &mut Vec<u8>) {
    if group.is_some() {
        // items / slabs / sizes describe memcached's slab allocator, which Basalt does not have.
        out.extend_from_slice(b"END\r\n");
        return;
    }
    let store = shared.db.stats();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let lines: Vec<(&str, String)> = vec![
        ("pid", std::process::id().to_string()),
        ("uptime", shared.stats.started.elapsed().as_secs().to_string()),
        ("time", now.to_string()),
        ("version", super::VERSION.to_string()),
        ("pointer_size", (8 * std::mem::size_of::<usize>()).to_string()),
        ("curr_connections", stats.curr_connections.load(Relaxed).to_string()),
        ("total_connections", stats.total_connections.load(Relaxed).to_string()),
        ("cmd_get", stats.cmd_get.load(Relaxed).to_string()),
        ("cmd_set", stats.cmd_set.load(Relaxed).to_string()),
        ("cmd_flush", stats.cmd_flush.load(Relaxed).to_string()),
        ("cmd_touch", stats.cmd_touch.load(Relaxed).to_string()),
        ("get_hits", stats.get_hits.load(Relaxed).to_string()),
        ("get_misses", stats.get_misses.load(Relaxed).to_string()),
        ("delete_hits_and_misses", stats.cmd_delete.load(Relaxed).to_string()),
        ("incr_decr", stats.incr_decr.load(Relaxed).to_string()),
        ("auth_cmds", stats.auth_cmds.load(Relaxed).to_string()),
        ("auth_errors", stats.auth_errors.load(Relaxed).to_string()),
        ("curr_items", store.keys.to_string()),
        ("bytes", store.used_memory.to_string()),
        ("limit_maxbytes", store.maxmemory.to_string()),
        ("evictions", "0".to_string()),
        ("expired_unfetched", store.expired_keys.to_string()),
    ];
    for (name, value) in lines {
        out.extend_from_slice(format!("STAT {name} {value}\r\n").as_bytes());
    }
    out.extend_from_slice(b"END\r\n");
}
