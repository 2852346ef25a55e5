//! [`Key`]: how a shard's map holds a key. Up to [`INLINE`] bytes sit in the map's own slot;
//! a longer key is one exact allocation. A `Bytes` there took 32 bytes in the slot *and* a heap
//! allocation of its own for every key (32 bytes from malloc for a 23-byte YCSB key), so the
//! inline form saves that allocation for the keys most workloads use (memtier's `memtier-N`,
//! YCSB's `user<digits>`, session ids) at the same slot size.

use bytes::Bytes;
use std::borrow::Borrow;
use std::hash::BuildHasher;
use std::sync::OnceLock;
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// How a shard's map hashes its keys: foldhash, seeded per map from the system's random source.
/// SipHash (std's default) cost about 200 instructions per 20-byte key, and every command
/// hashed its key twice (shard, then map): 5 % of a GET's instructions. foldhash is what
/// hashbrown uses by default, but it draws its own global seed from addresses and the clock
/// and does not claim that is unguessable; seeds from `getrandom` make keys that collide in
/// one server's maps something a client cannot compute beforehand. (foldhash is no keyed
/// PRF as SipHash is; an instance serves one customer, who would only slow their own.)
#[derive(Clone)]
pub(crate) struct KeyHasher(foldhash::fast::SeedableRandomState);

impl Default for KeyHasher {
    fn default() -> KeyHasher {
        static SHARED: OnceLock<foldhash::SharedSeed> = OnceLock::new();
        let shared = SHARED.get_or_init(|| foldhash::SharedSeed::from_u64(random_u64()));
        KeyHasher(foldhash::fast::SeedableRandomState::with_seed(random_u64(), shared))
    }
}

impl BuildHasher for KeyHasher {
    type Hasher = foldhash::fast::FoldHasher<'static>;

    fn build_hasher(&self) -> Self::Hasher {
        self.0.build_hasher()
    }
}

/// 64 bits from the system's random source (the clock's nanoseconds should it fail, which it
/// does not on Linux).
fn random_u64() -> u64 {
    use ring::rand::SecureRandom;
    let mut bytes = [0u8; 8];
    if ring::rand::SystemRandom::new().fill(&mut bytes).is_err() {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        bytes = nanos.to_le_bytes();
    }
    u64::from_le_bytes(bytes)
}

/// Which of `n` shards holds `key`: a hash with a seed of its own, drawn once per process,
/// independent of the maps' (a shard's keys share this hash's remainder, so the map's own
/// hash must not be this one).
pub(crate) fn shard_of(key: &[u8], n: usize) -> usize {
    static SHARDS: OnceLock<KeyHasher> = OnceLock::new();
    (SHARDS.get_or_init(KeyHasher::default).hash_one(key) % n as u64) as usize
}

/// Longest key held inline: with the length byte and the variant's tag, 32 bytes in all.
pub(crate) const INLINE: usize = 30;

#[derive(Clone)]
pub(crate) enum Key {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<[u8]>),
}

impl Key {
    pub fn new(key: &[u8]) -> Key {
        if key.len() <= INLINE {
            let mut bytes = [0u8; INLINE];
            bytes[..key.len()].copy_from_slice(key);
            Key::Inline { len: key.len() as u8, bytes }
        } else {
            Key::Heap(key.into())
        }
    }

    /// A copy as `Bytes`, for what leaves the shard (SCAN, RANDOMKEY).
    pub fn to_bytes(&self) -> Bytes {
        Bytes::copy_from_slice(self)
    }
}

impl Deref for Key {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Key::Inline { len, bytes } => &bytes[..*len as usize],
            Key::Heap(b) => b,
        }
    }
}

/// Lookups by `&[u8]`: equality and hash are the bytes', as `Borrow` requires.
impl Borrow<[u8]> for Key {
    fn borrow(&self) -> &[u8] {
        self
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state)
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        **self == **other
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Key) -> Ordering {
        (**self).cmp(&**other)
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::RandomState;
    use std::hash::BuildHasher;

    #[test]
    fn a_key_takes_32_bytes_in_the_slot_and_an_item_120() {
        assert_eq!(std::mem::size_of::<Key>(), 32);
        assert_eq!(std::mem::size_of::<crate::shard::Item>(), 120);
        assert_eq!(std::mem::size_of::<crate::wal::Loc>(), 28);
    }

    #[test]
    fn inline_and_boxed_keys_read_back_hash_and_order_as_their_bytes() {
        let state = RandomState::new();
        let mut keys: Vec<Vec<u8>> = vec![vec![], b"a".to_vec(), vec![0xff; INLINE], vec![7; INLINE + 1], vec![1; 1000]];
        keys.push(b"user6284781860667377211".to_vec());
        for k in &keys {
            let key = Key::new(k);
            assert_eq!(&*key, &k[..]);
            assert_eq!(matches!(key, Key::Inline { .. }), k.len() <= INLINE);
            assert_eq!(state.hash_one(&key), state.hash_one(&k[..]));
            assert_eq!(key.to_bytes(), Bytes::copy_from_slice(k));
        }
        for a in &keys {
            for b in &keys {
                assert_eq!(Key::new(a).cmp(&Key::new(b)), a.cmp(b));
                assert_eq!(Key::new(a) == Key::new(b), a == b);
            }
        }
    }
}
