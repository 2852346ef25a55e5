//! basalt-bench: a memtier_benchmark-compatible load generator with YCSB workloads.
//!
//! # Layout
//! - `cli`      — memtier_benchmark's flags (clap) and their validation into a [`cli::Config`].
//! - `rng`      — a small fast PRNG (wyrand) with uniform, gaussian and float draws.
//! - `keys`     — key patterns R/S/G/P over `--key-minimum..=--key-maximum`, data sizes, values.
//! - `proto`    — request encoding (RESP, memcache text) and zero-copy reply scanning.
//! - `net`      — TCP/TLS connect (rustls with the `ring` provider) and the AUTH/HELLO/SELECT handshake.
//! - `stats`    — per-thread counters, HdrHistograms, per-second series; merged after a run.
//! - `report`   — memtier's summary table, latency distribution and JSON file.
//! - `tls`      — rustls client configuration (ring provider, --cacert, --tls-skip-verify).
//! - `memtier`  — the memtier mode: runs, tables, JSON file, exit code.
//! - `client`   — one pipelined connection of the memtier mode (no per-request allocation).
//! - `runner`   — threads x clients, current-thread tokio runtime per thread, progress, watchdog.
//! - `ycsb`     — `basalt-bench ycsb load|run`: CoreWorkload a..f, YCSB's generators, Redis binding.
//! - `canonical` — `basalt-bench canonical`: RethinkDB's canonical workload over memcached's protocol.

pub mod canonical;
pub mod cli;
pub mod command;
pub mod client;
pub mod keys;
pub mod memtier;
pub mod net;
pub mod proto;
pub mod report;
pub mod rng;
pub mod runner;
pub mod stats;
pub mod tls;
pub mod ycsb;
