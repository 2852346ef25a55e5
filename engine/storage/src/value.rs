//! The value model: what a key holds, and its optional expiry.

use crate::stream::Stream;
use bytes::Bytes;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::ops::Bound;

/// What one key holds plus its expiry (absolute unix time in milliseconds) and its
/// memcached flags.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub value: Value,
    pub expires_at_ms: Option<u64>,
    /// The 32 opaque bits a memcached client stores with an item (`set key flags ...`), kept
    /// in the log with the value. 0 for anything written through RESP: its commands build a
    /// new entry, so a RESP write over a memcached item resets them.
    pub flags: u32,
}

impl Entry {
    /// An entry without expiry.
    pub fn new(value: Value) -> Entry {
        Entry { value, expires_at_ms: None, flags: 0 }
    }

    /// An entry that expires at `expires_at_ms` (unix ms).
    pub fn with_expiry(value: Value, expires_at_ms: Option<u64>) -> Entry {
        Entry { value, expires_at_ms, flags: 0 }
    }

    /// The same entry carrying memcached `flags`.
    pub fn with_flags(mut self, flags: u32) -> Entry {
        self.flags = flags;
        self
    }

    pub fn is_expired(&self, now_ms: u64) -> bool {
        matches!(self.expires_at_ms, Some(t) if t <= now_ms)
    }
}

/// The six Redis data types.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Str(Bytes),
    /// Hashes, sets and sorted sets are boxed like streams: their maps would make every
    /// value larger (80 B instead of 40), and every key holds one (most of them strings).
    Hash(Box<HashMap<Bytes, Bytes>>),
    List(VecDeque<Bytes>),
    Set(Box<HashSet<Bytes>>),
    ZSet(Box<ZSet>),
    Stream(Box<Stream>),
}

/// The type of a value without the value itself (known even when the value is on disk).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Str,
    Hash,
    List,
    Set,
    ZSet,
    Stream,
}

impl Kind {
    /// The name `TYPE` replies with.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Str => "string",
            Kind::Hash => "hash",
            Kind::List => "list",
            Kind::Set => "set",
            Kind::ZSet => "zset",
            Kind::Stream => "stream",
        }
    }

    /// Parses a `TYPE` name (as `SCAN ... TYPE` takes it), case-insensitively.
    pub fn from_name(name: &[u8]) -> Option<Kind> {
        let lower = name.to_ascii_lowercase();
        Some(match lower.as_slice() {
            b"string" => Kind::Str,
            b"hash" => Kind::Hash,
            b"list" => Kind::List,
            b"set" => Kind::Set,
            b"zset" => Kind::ZSet,
            b"stream" => Kind::Stream,
            _ => return None,
        })
    }
}

impl Value {
    pub fn kind(&self) -> Kind {
        match self {
            Value::Str(_) => Kind::Str,
            Value::Hash(_) => Kind::Hash,
            Value::List(_) => Kind::List,
            Value::Set(_) => Kind::Set,
            Value::ZSet(_) => Kind::ZSet,
            Value::Stream(_) => Kind::Stream,
        }
    }

    /// True for a collection with no elements; such a key is deleted, as in Redis (a stream
    /// stays when empty, as in Redis).
    pub fn is_empty_collection(&self) -> bool {
        match self {
            Value::Str(_) | Value::Stream(_) => false,
            Value::Hash(h) => h.is_empty(),
            Value::List(l) => l.is_empty(),
            Value::Set(s) => s.is_empty(),
            Value::ZSet(z) => z.is_empty(),
        }
    }

    /// Approximate bytes of memory this value holds (what `maxmemory` counts).
    pub fn mem_size(&self) -> usize {
        const ELEM: usize = 32;
        match self {
            Value::Str(b) => b.len() + ELEM,
            Value::Hash(h) => h.iter().map(|(k, v)| k.len() + v.len() + 2 * ELEM).sum::<usize>() + ELEM,
            Value::List(l) => l.iter().map(|v| v.len() + ELEM).sum::<usize>() + ELEM,
            Value::Set(s) => s.iter().map(|v| v.len() + ELEM).sum::<usize>() + ELEM,
            Value::ZSet(z) => z.iter().map(|(m, _)| 2 * m.len() + 3 * ELEM).sum::<usize>() + ELEM,
            Value::Stream(s) => s.mem_size(),
        }
    }
}

/// A score that orders like Redis orders sorted-set scores (NaN is refused at insert).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Score(f64);

impl Eq for Score {}
impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Score {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// A sorted set: members ordered by (score, member), with score lookup by member.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ZSet {
    scores: HashMap<Bytes, f64>,
    ordered: BTreeSet<(Score, Bytes)>,
}

impl ZSet {
    pub fn new() -> ZSet {
        ZSet::default()
    }

    pub fn len(&self) -> usize {
        self.scores.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// Sets `member`'s score; returns true if the member is new. A NaN score is ignored
    /// (returns false): callers refuse NaN before, as Redis does.
    pub fn insert(&mut self, member: Bytes, score: f64) -> bool {
        if score.is_nan() {
            return false;
        }
        // -0.0 and 0.0 are one score in Redis.
        let score = if score == 0.0 { 0.0 } else { score };
        match self.scores.insert(member.clone(), score) {
            Some(old) => {
                self.ordered.remove(&(Score(old), member.clone()));
                self.ordered.insert((Score(score), member));
                false
            }
            None => {
                self.ordered.insert((Score(score), member));
                true
            }
        }
    }

    pub fn remove(&mut self, member: &[u8]) -> bool {
        match self.scores.remove_entry(member) {
            Some((m, s)) => {
                self.ordered.remove(&(Score(s), m));
                true
            }
            None => false,
        }
    }

    pub fn score(&self, member: &[u8]) -> Option<f64> {
        self.scores.get(member).copied()
    }

    /// Members in ascending (score, member) order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&Bytes, f64)> + '_ {
        self.ordered.iter().map(|(s, m)| (m, s.0))
    }

    /// Members whose score lies within the bounds, ascending.
    pub fn range_by_score(&self, min: Bound<f64>, max: Bound<f64>) -> impl Iterator<Item = (&Bytes, f64)> + '_ {
        let above = move |s: f64| match min {
            Bound::Included(m) => s >= m,
            Bound::Excluded(m) => s > m,
            Bound::Unbounded => true,
        };
        let below = move |s: f64| match max {
            Bound::Included(m) => s <= m,
            Bound::Excluded(m) => s < m,
            Bound::Unbounded => true,
        };
        let start = match min {
            Bound::Included(m) | Bound::Excluded(m) if !m.is_nan() => Bound::Included((Score(m), Bytes::new())),
            _ => Bound::Unbounded,
        };
        self.ordered
            .range((start, Bound::Unbounded))
            .map(|(s, m)| (m, s.0))
            .skip_while(move |(_, s)| !above(*s))
            .take_while(move |(_, s)| below(*s))
    }
}
