//! A command's arguments copied out of the read buffer: what MULTI queues until EXEC and
//! what a script's `redis.call` builds.

use super::frame::Args;
use std::ops::Range;

#[derive(Clone, Debug, Default)]
pub struct OwnedArgs {
    bytes: Vec<u8>,
    spans: Vec<Range<usize>>,
}

impl OwnedArgs {
    pub fn new() -> OwnedArgs {
        OwnedArgs::default()
    }

    pub fn push(&mut self, arg: &[u8]) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(arg);
        self.spans.push(start..self.bytes.len());
    }

    pub fn copy_of(args: &Args<'_>) -> OwnedArgs {
        let mut owned = OwnedArgs::new();
        for arg in args.iter() {
            owned.push(arg);
        }
        owned
    }

    pub fn args(&self) -> Args<'_> {
        Args::from_parts(&self.bytes, &self.spans)
    }

    /// Bytes held (CLIENT LIST `multi-mem`).
    pub fn mem(&self) -> usize {
        self.bytes.len() + self.spans.len() * std::mem::size_of::<Range<usize>>()
    }
}
