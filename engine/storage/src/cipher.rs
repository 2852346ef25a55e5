//! Encryption at rest: AES-256-GCM (ring) of the keys and values the log stores, with a key
//! read from a file. Off by default (`Options::cipher` = None); the server sets it from
//! `--encryption-key-file` (`Cipher::from_key_file`).
//!
//! Where it is used:
//!   - codec.rs `RecordBuf::put`/`del`: a key is sealed with AAD `k`, a value with its plaintext
//!     key as AAD (a value moved to another key fails to open); the length prefixes count the
//!     sealed bytes (`SEAL_OVERHEAD` more each). Framing (op codes, lengths, expiry, CRC) stays
//!     plaintext, so recovery finds record boundaries and cuts a torn tail by CRC first;
//!   - recovery.rs and `Inner::load` (cold values, `Loc` points at the sealed bytes) open them;
//!     a failure is `StorageError::Corrupt`;
//!   - compact.rs opens sealed keys to find their items and copies key and value as stored;
//!   - at_rest.rs keeps `encryption.check` (`check_token`) in the data dir, so a wrong key, a
//!     missing key, or a key on a plaintext dir is `StorageError::Encryption` at open.
//!
//! Nonces: 96 bits = a random 32-bit prefix drawn when the cipher is made, then a 64-bit
//! counter that starts at the current time in nanoseconds and increases by one per seal. A
//! nonce never repeats within a run; across runs a repeat needs the same random prefix *and*
//! overlapping counter ranges. (AES-GCM's limit of 2^32 random nonces per key does not apply
//! to counters.)

use ring::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_256_GCM, NONCE_LEN};
use ring::rand::{SecureRandom, SystemRandom};
use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Bytes a sealed field is longer than the plaintext: nonce (12) and tag (16).
pub const SEAL_OVERHEAD: usize = NONCE_LEN + 16;

const CHECK_TEXT: &[u8] = b"basalt encryption at rest v1";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CipherError {
    /// The key file is missing, unreadable or not 32 bytes (raw, 64 hex digits or base64).
    BadKey(String),
    /// A sealed field did not open: another key, or the bytes were changed.
    Open,
}

impl fmt::Display for CipherError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CipherError::BadKey(why) => write!(f, "encryption key: {why}"),
            CipherError::Open => f.write_str("a sealed record did not decrypt: wrong encryption key or tampered log"),
        }
    }
}

impl std::error::Error for CipherError {}

pub struct Cipher {
    key: LessSafeKey,
    prefix: [u8; 4],
    counter: AtomicU64,
}

impl fmt::Debug for Cipher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Cipher(AES-256-GCM, key hidden)")
    }
}

/// 32 key bytes from the file's text: raw bytes, 64 hex digits, or standard base64.
fn parse_key(bytes: &[u8]) -> Result<[u8; 32], CipherError> {
    if bytes.len() == 32 {
        return Ok(bytes.try_into().expect("32 bytes"));
    }
    let text = std::str::from_utf8(bytes).map_err(|_| CipherError::BadKey("must be 32 raw bytes, 64 hex digits or base64 of 32 bytes".into()))?;
    let text = text.trim();
    if text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        let mut key = [0u8; 32];
        for (i, chunk) in text.as_bytes().chunks(2).enumerate() {
            key[i] = u8::from_str_radix(std::str::from_utf8(chunk).expect("ascii"), 16).expect("hex digits");
        }
        return Ok(key);
    }
    let decoded = base64_decode(text).ok_or_else(|| CipherError::BadKey("must be 32 raw bytes, 64 hex digits or base64 of 32 bytes".into()))?;
    decoded.try_into().map_err(|v: Vec<u8>| CipherError::BadKey(format!("base64 holds {} bytes, AES-256 needs 32", v.len())))
}

fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let body = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in body.bytes() {
        acc = (acc << 6) | value(c)?;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

impl Cipher {
    /// A cipher with `key` (32 bytes).
    pub fn new(key: &[u8; 32]) -> Result<Cipher, CipherError> {
        let unbound = UnboundKey::new(&AES_256_GCM, key).map_err(|_| CipherError::BadKey("rejected by AES-256-GCM".into()))?;
        let mut prefix = [0u8; 4];
        SystemRandom::new().fill(&mut prefix).map_err(|_| CipherError::BadKey("no system randomness for nonces".into()))?;
        let start = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1);
        Ok(Cipher { key: LessSafeKey::new(unbound), prefix, counter: AtomicU64::new(start) })
    }

    /// Reads the key file (raw 32 bytes, 64 hex digits, or base64); never prints the key.
    pub fn from_key_file(path: &Path) -> Result<Cipher, CipherError> {
        let bytes = std::fs::read(path).map_err(|e| CipherError::BadKey(format!("cannot read {}: {e}", path.display())))?;
        Cipher::new(&parse_key(&bytes)?)
    }

    fn next_nonce(&self) -> [u8; NONCE_LEN] {
        let mut nonce = [0u8; NONCE_LEN];
        nonce[..4].copy_from_slice(&self.prefix);
        nonce[4..].copy_from_slice(&self.counter.fetch_add(1, Relaxed).to_be_bytes());
        nonce
    }

    /// Appends `nonce | ciphertext | tag` of `plaintext` to `out`; `aad` is authenticated too.
    pub fn seal(&self, aad: &[u8], plaintext: &[u8], out: &mut Vec<u8>) {
        let nonce = self.next_nonce();
        out.extend_from_slice(&nonce);
        let start = out.len();
        out.extend_from_slice(plaintext);
        let tag = self
            .key
            .seal_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::from(aad), &mut out[start..])
            .expect("AES-GCM seals any length the log can hold");
        out.extend_from_slice(tag.as_ref());
    }

    /// Seals in place, without allocating: `buf[at..at + NONCE_LEN]` was reserved for the nonce
    /// (`reserve_nonce`) and everything after it is the plaintext; the tag is appended. The
    /// result is the same `nonce | ciphertext | tag` layout `seal` writes.
    pub fn seal_tail(&self, aad: &[u8], buf: &mut Vec<u8>, at: usize) {
        let nonce = self.next_nonce();
        buf[at..at + NONCE_LEN].copy_from_slice(&nonce);
        let tag = self
            .key
            .seal_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::from(aad), &mut buf[at + NONCE_LEN..])
            .expect("AES-GCM seals any length the log can hold");
        buf.extend_from_slice(tag.as_ref());
    }

    /// Reserves the nonce bytes at the end of `buf` for `seal_tail`; returns where they start.
    pub fn reserve_nonce(buf: &mut Vec<u8>) -> usize {
        let at = buf.len();
        buf.extend_from_slice(&[0u8; NONCE_LEN]);
        at
    }

    /// Opens a sealed field in place; the plaintext is the returned prefix of `sealed`'s tail.
    pub fn open<'a>(&self, aad: &[u8], sealed: &'a mut [u8]) -> Result<&'a [u8], CipherError> {
        if sealed.len() < SEAL_OVERHEAD {
            return Err(CipherError::Open);
        }
        let (nonce, rest) = sealed.split_at_mut(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| CipherError::Open)?;
        let plain = self.key.open_in_place(nonce, Aad::from(aad), rest).map_err(|_| CipherError::Open)?;
        Ok(plain)
    }

    /// A sealed known text to keep in the data dir: it tells a wrong key from a right one.
    pub fn check_token(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(CHECK_TEXT.len() + SEAL_OVERHEAD);
        self.seal(b"check", CHECK_TEXT, &mut out);
        out
    }

    pub fn verify_check_token(&self, token: &[u8]) -> Result<(), CipherError> {
        let mut copy = token.to_vec();
        match self.open(b"check", &mut copy)? {
            plain if plain == CHECK_TEXT => Ok(()),
            _ => Err(CipherError::Open),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seal_open_and_refusals() {
        let c = Cipher::new(&[7u8; 32]).unwrap();
        let mut sealed = Vec::new();
        c.seal(b"key1", b"a value", &mut sealed);
        assert_eq!(sealed.len(), 7 + SEAL_OVERHEAD);
        assert!(!sealed.windows(7).any(|w| w == b"a value"));
        let mut copy = sealed.clone();
        assert_eq!(c.open(b"key1", &mut copy).unwrap(), b"a value");
        // Another key (AAD), a flipped bit, another cipher key: all refused.
        assert_eq!(c.open(b"key2", &mut sealed.clone()), Err(CipherError::Open));
        let mut flipped = sealed.clone();
        flipped[14] ^= 1;
        assert_eq!(c.open(b"key1", &mut flipped), Err(CipherError::Open));
        let other = Cipher::new(&[8u8; 32]).unwrap();
        assert_eq!(other.open(b"key1", &mut sealed.clone()), Err(CipherError::Open));
        assert_eq!(other.verify_check_token(&c.check_token()), Err(CipherError::Open));
        c.verify_check_token(&c.check_token()).unwrap();
        // In-place sealing writes the same layout.
        let mut buf = b"head".to_vec();
        let at = Cipher::reserve_nonce(&mut buf);
        buf.extend_from_slice(b"a value");
        c.seal_tail(b"key1", &mut buf, at);
        assert_eq!(&buf[..4], b"head");
        assert_eq!(c.open(b"key1", &mut buf[4..]).unwrap(), b"a value");
        // Nonces differ between two seals of the same text.
        let (mut a, mut b) = (Vec::new(), Vec::new());
        c.seal(b"", b"x", &mut a);
        c.seal(b"", b"x", &mut b);
        assert_ne!(a, b);
        assert_eq!(c.open(b"", &mut [0u8; 5]), Err(CipherError::Open));
    }

    #[test]
    fn key_file_forms() {
        assert_eq!(parse_key(&[1u8; 32]).unwrap(), [1u8; 32]);
        assert_eq!(parse_key("ab".repeat(32).as_bytes()).unwrap(), [0xab; 32]);
        // base64 of 32 zero bytes
        assert_eq!(parse_key(b"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n").unwrap(), [0u8; 32]);
        assert!(parse_key(b"too short").is_err());
        assert!(Cipher::from_key_file(Path::new("/nonexistent/key")).is_err());
    }
}
