//! The encoding Redis 7.0 would choose for a value at its default thresholds, which OBJECT
//! ENCODING and DEBUG OBJECT report (Basalt keeps one in-memory form per type; clients and
//! tools read this name to reason about memory, so it follows Redis' rules).

use crate::resp::number::parse_i64;
use basalt_storage::Value;

/// `hash-max-listpack-entries`, `zset-max-listpack-entries`.
const LISTPACK_ENTRIES: usize = 128;
/// `hash-max-listpack-value`, `zset-max-listpack-value`.
const LISTPACK_VALUE: usize = 64;
/// `set-max-intset-entries`.
const INTSET_ENTRIES: usize = 512;
/// Strings up to this long are embedded in their object.
const EMBSTR_MAX: usize = 44;

pub fn encoding(value: &Value) -> &'static str {
    match value {
        Value::Str(b) if b.len() <= 20 && parse_i64(b).is_some() => "int",
        Value::Str(b) if b.len() <= EMBSTR_MAX => "embstr",
        Value::Str(_) => "raw",
        Value::List(_) => "quicklist",
        Value::Hash(h) if h.len() <= LISTPACK_ENTRIES && h.iter().all(|(k, v)| k.len() <= LISTPACK_VALUE && v.len() <= LISTPACK_VALUE) => "listpack",
        Value::Hash(_) => "hashtable",
        Value::Set(s) if s.len() <= INTSET_ENTRIES && s.iter().all(|m| parse_i64(m).is_some()) => "intset",
        Value::Set(_) => "hashtable",
        Value::ZSet(z) if z.len() <= LISTPACK_ENTRIES && z.iter().all(|(m, _)| m.len() <= LISTPACK_VALUE) => "listpack",
        Value::ZSet(_) => "skiplist",
    }
}
