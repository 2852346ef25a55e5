//! Password hashes: SHA-256 in lowercase hex, as Redis keeps them (`#<64 hex digits>`).

use ring::digest::{digest, SHA256};

/// The hex SHA-256 of a password.
pub fn hash_password(password: &[u8]) -> String {
    to_hex(digest(&SHA256, password).as_ref())
}

pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 15) as usize] as char);
    }
    out
}

/// Whether `text` is a hash as `#<hash>` takes it: 64 hex digits (stored in lowercase).
pub fn parse_hash(text: &str) -> Option<String> {
    (text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())).then(|| text.to_ascii_lowercase())
}

/// Compares two hashes in time independent of where they differ.
pub fn same_hash(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_digest() {
        // `echo -n foobar | sha256sum`
        assert_eq!(hash_password(b"foobar"), "c3ab8ff13720e8ad9047dd39466b3c8974e592c2fa383d4a3960714caef0c4f2");
        assert!(parse_hash(&hash_password(b"x")).is_some());
        assert!(parse_hash("abc").is_none());
        assert!(same_hash("ab", "ab") && !same_hash("ab", "ac"));
    }
}
