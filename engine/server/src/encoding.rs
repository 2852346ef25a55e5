//! The encoding Redis 7.0 would choose for a value, which OBJECT ENCODING and DEBUG OBJECT
//! report (Basalt keeps one in-memory form per type; clients and tools read this name to
//! reason about memory, so it follows Redis' rules). The thresholds are Redis' settings of the
//! same names (CONFIG SET `hash-max-listpack-entries` ...): they change what is reported, as
//! they change the encoding in Redis.

use crate::resp::number::parse_i64;
use basalt_storage::Value;

/// Strings up to this long are embedded in their object.
const EMBSTR_MAX: usize = 44;

/// Redis' encoding thresholds, with its defaults.
#[derive(Clone, Debug)]
pub struct Thresholds {
    pub hash_max_listpack_entries: usize,
    pub hash_max_listpack_value: usize,
    pub zset_max_listpack_entries: usize,
    pub zset_max_listpack_value: usize,
    pub set_max_intset_entries: usize,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            hash_max_listpack_entries: 128,
            hash_max_listpack_value: 64,
            zset_max_listpack_entries: 128,
            zset_max_listpack_value: 64,
            set_max_intset_entries: 512,
        }
    }
}

/// The settings' names (CONFIG GET/SET) and where each lives.
pub const PARAMETERS: &[&str] = &[
    "hash-max-listpack-entries",
    "hash-max-listpack-value",
    "zset-max-listpack-entries",
    "zset-max-listpack-value",
    "set-max-intset-entries",
];

/// Redis 6's names, still accepted by Redis 7.
pub const ALIASES: &[(&str, &str)] = &[
    ("hash-max-ziplist-entries", "hash-max-listpack-entries"),
    ("hash-max-ziplist-value", "hash-max-listpack-value"),
    ("zset-max-ziplist-entries", "zset-max-listpack-entries"),
    ("zset-max-ziplist-value", "zset-max-listpack-value"),
];

impl Thresholds {
    pub fn slot(&mut self, parameter: &str) -> Option<&mut usize> {
        Some(match parameter {
            "hash-max-listpack-entries" => &mut self.hash_max_listpack_entries,
            "hash-max-listpack-value" => &mut self.hash_max_listpack_value,
            "zset-max-listpack-entries" => &mut self.zset_max_listpack_entries,
            "zset-max-listpack-value" => &mut self.zset_max_listpack_value,
            "set-max-intset-entries" => &mut self.set_max_intset_entries,
            _ => return None,
        })
    }

    pub fn get(&self, parameter: &str) -> Option<usize> {
        self.clone().slot(parameter).map(|v| *v)
    }
}

pub fn encoding(value: &Value, t: &Thresholds) -> &'static str {
    match value {
        Value::Str(b) if b.len() <= 20 && parse_i64(b).is_some() => "int",
        Value::Str(b) if b.len() <= EMBSTR_MAX => "embstr",
        Value::Str(_) => "raw",
        Value::List(_) => "quicklist",
        Value::Hash(h)
            if h.len() <= t.hash_max_listpack_entries
                && h.iter().all(|(k, v)| k.len() <= t.hash_max_listpack_value && v.len() <= t.hash_max_listpack_value) =>
        {
            "listpack"
        }
        Value::Hash(_) => "hashtable",
        Value::Set(s) if s.len() <= t.set_max_intset_entries && s.iter().all(|m| parse_i64(m).is_some()) => "intset",
        Value::Set(_) => "hashtable",
        Value::ZSet(z) if z.len() <= t.zset_max_listpack_entries && z.iter().all(|(m, _)| m.len() <= t.zset_max_listpack_value) => {
            "listpack"
        }
        Value::ZSet(_) => "skiplist",
    }
}
