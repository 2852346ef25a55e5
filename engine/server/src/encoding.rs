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
    /// Quicklist node size and compression depth: Redis 7.0 lists are always `quicklist`,
    /// so these change no encoding Basalt reports (nor its storage); they are kept so CONFIG
    /// GET answers what CONFIG SET was given, as tools and Redis' suite expect.
    pub list_max_listpack_size: i64,
    pub list_compress_depth: i64,
    /// Entries of one stream node: `XADD/XTRIM ... ~` trim whole nodes of this many entries
    /// (0: no limit). The byte bound is kept for CONFIG GET only.
    pub stream_node_max_entries: usize,
    pub stream_node_max_bytes: usize,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            hash_max_listpack_entries: 128,
            hash_max_listpack_value: 64,
            zset_max_listpack_entries: 128,
            zset_max_listpack_value: 64,
            set_max_intset_entries: 512,
            list_max_listpack_size: -2,
            list_compress_depth: 0,
            stream_node_max_entries: 100,
            stream_node_max_bytes: 4096,
        }
    }
}

/// Where each setting lives (`settings.rs` lists them with Redis 6's names as aliases).
impl Thresholds {
    pub fn slot(&mut self, parameter: &str) -> Option<&mut usize> {
        Some(match parameter {
            "hash-max-listpack-entries" => &mut self.hash_max_listpack_entries,
            "hash-max-listpack-value" => &mut self.hash_max_listpack_value,
            "zset-max-listpack-entries" => &mut self.zset_max_listpack_entries,
            "zset-max-listpack-value" => &mut self.zset_max_listpack_value,
            "set-max-intset-entries" => &mut self.set_max_intset_entries,
            "stream-node-max-entries" => &mut self.stream_node_max_entries,
            "stream-node-max-bytes" => &mut self.stream_node_max_bytes,
            _ => return None,
        })
    }

    pub fn list_slot(&mut self, parameter: &str) -> Option<&mut i64> {
        Some(match parameter {
            "list-max-listpack-size" => &mut self.list_max_listpack_size,
            "list-compress-depth" => &mut self.list_compress_depth,
            _ => return None,
        })
    }

    pub fn get(&self, parameter: &str) -> Option<i64> {
        let mut t = self.clone();
        let list = t.list_slot(parameter).map(|v| *v);
        list.or_else(|| t.slot(parameter).map(|v| *v as i64))
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
        Value::Stream(_) => "stream",
    }
}
