//! The command table flattened for lookup: every command and subcommand gets an index, which
//! is also its slot in `INFO commandstats`. Lookup is case-insensitive and allocation-free.

use crate::table::{CommandSpec, COMMANDS};
use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

pub struct Entry {
    pub spec: &'static CommandSpec,
    /// `get`, or `client|setname` for a subcommand (the name Redis reports errors and stats by).
    pub fullname: String,
    /// For a container: the indices of its subcommands.
    pub subcommands: Range<usize>,
    pub parent: Option<usize>,
}

pub struct Registry {
    pub entries: Vec<Entry>,
    /// foldhash: std's SipHash was 4 % of a GET's instructions here, and this table is fixed
    /// (a client's names are only looked up, never inserted).
    by_name: HashMap<&'static [u8], usize, foldhash::fast::RandomState>,
    /// Indices of the top-level commands, in table order.
    pub top_level: Vec<usize>,
}

/// The longest command name; longer input cannot be a command.
const MAX_NAME: usize = 32;

impl Registry {
    fn build() -> Registry {
        let mut entries = Vec::new();
        let mut by_name = HashMap::default();
        let mut top_level = Vec::new();
        for spec in COMMANDS {
            let index = entries.len();
            top_level.push(index);
            by_name.insert(spec.name.as_bytes(), index);
            entries.push(Entry { spec, fullname: spec.name.to_string(), subcommands: 0..0, parent: None });
            let first = entries.len();
            for sub in spec.subcommands {
                entries.push(Entry {
                    spec: sub,
                    fullname: format!("{}|{}", spec.name, sub.name),
                    subcommands: 0..0,
                    parent: Some(index),
                });
            }
            entries[index].subcommands = first..entries.len();
        }
        Registry { entries, by_name, top_level }
    }

    /// The index of a top-level command by name, any case.
    pub fn lookup(&self, name: &[u8]) -> Option<usize> {
        if name.len() > MAX_NAME {
            return None;
        }
        let mut lower = [0u8; MAX_NAME];
        for (dst, src) in lower.iter_mut().zip(name) {
            *dst = src.to_ascii_lowercase();
        }
        self.by_name.get(&lower[..name.len()]).copied()
    }

    /// The index of subcommand `name` of container `parent`, any case.
    pub fn lookup_sub(&self, parent: usize, name: &[u8]) -> Option<usize> {
        self.entries[parent]
            .subcommands
            .clone()
            .find(|&i| self.entries[i].spec.name.as_bytes().eq_ignore_ascii_case(name))
    }

    /// Looks up `client|setname`-style full names too (as `COMMAND INFO` and `COMMAND DOCS` take them).
    pub fn lookup_full(&self, name: &[u8]) -> Option<usize> {
        match name.iter().position(|&b| b == b'|') {
            None => self.lookup(name),
            Some(bar) => {
                let parent = self.lookup(&name[..bar])?;
                self.lookup_sub(parent, &name[bar + 1..])
            }
        }
    }
}

pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(Registry::build)
}
