//! basalt-rdb: Redis RDB files in and out of Basalt.
//!
//! The [`Reader`] takes what Redis 7.0 writes (RDB 10; versions 1-11 and the legacy encodings
//! Redis 7.0 still loads) from any `Read`, one key at a time, every length bounded, the CRC64
//! checked at the end. The [`Writer`] produces RDB 10 that Redis 7.0 loads. [`import`] fills an
//! empty Basalt data dir from an RDB through basalt-storage's API; [`export`] writes a data
//! dir's keys as an RDB. The `basalt-rdb` binary runs both.
//!
//! # Layout
//! - `format.rs`      — the RDB format's numbers: opcodes, types, length encodings.
//! - `source.rs`      — the buffered, offset-counting, checksumming, bounded input.
//! - `reader.rs`      — [`Reader`]: header, opcodes, lengths, strings, [`Item`]s.
//! - `load.rs`        — one value of each RDB type into a [`basalt_storage::Value`].
//! - `stream_load.rs` — streams with consumer groups, pending entries and consumers.
//! - `packed.rs`      — [`Elem`](packed::Elem) of packed encodings; intset and zipmap.
//! - `ziplist.rs`, `listpack.rs` — the two packed list encodings (listpack also written).
//! - `lzf.rs`         — LZF decompression of compressed strings.
//! - `writer.rs`      — [`Writer`]: RDB 10 in the simplest encodings Redis 7.0 loads.
//! - `stream_save.rs` — a stream as STREAM_LISTPACKS_2.
//! - `import.rs`, `export.rs` — data dir in and out; `tool_error.rs` their [`ToolError`];
//!   `data_dir.rs` how both open a data dir.
//! - `error.rs`       — [`RdbError`], every variant naming the file offset.
//! - `main.rs`        — the `basalt-rdb` command line.

mod data_dir;
mod error;
mod export;
mod format;
mod import;
mod listpack;
mod load;
mod lzf;
mod packed;
mod reader;
mod source;
mod stream_load;
mod stream_save;
mod tool_error;
mod writer;
mod ziplist;

pub use error::RdbError;
pub use export::{export, ExportOptions, ExportReport};
pub use format::{MAX_READ_VERSION, WRITE_VERSION};
pub use import::{import, ImportOptions, ImportReport};
pub use reader::{Item, KeyValue, Limits, Reader};
pub use tool_error::ToolError;
pub use writer::Writer;
