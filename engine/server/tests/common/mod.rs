//! Test support shared by every wire test, whichever way it starts the server.
//!
//! # Layout
//! - `temp_dir`: a unique directory per test, removed on drop.
//! - `resp`: RESP framing, requests (`encode`) and the length of a whole reply (`reply_len`).
//! - `client`: a raw client over any stream (TCP or TLS) that sends bytes as given and reads
//!   exactly the bytes it expects, one whole reply, or everything until the server closes.
//! - `server`: a server task in this process and how a test stops it; `TestServer`, the RESP
//!   server alone on 127.0.0.1:0 with its own temp dir.
//!
//! `security_support` (servers started through `launch`) and `spawned` (the binary as a child
//! process) build on this module and include it themselves, so a test declares one of the
//! three.

// Each test binary uses a part of this module, so the rest is unused there.
#![allow(dead_code, unused_imports)]

mod client;
mod resp;
mod server;
mod temp_dir;

pub use client::{connect, Client};
pub use resp::{encode, reply_len};
pub use server::{ServerTask, TestServer};
pub use temp_dir::TempDir;
