//! Commands that name their keys by a count (ZUNIONSTORE, ZMPOP, BZMPOP, ZINTERCARD, ...) are
//! checked against a user's key patterns like any other: every counted key must match.

mod security_support;

use security_support::{start, TempDir};

/// Basalt words it as Redis 7.2 does (7.0: "this user has no permissions to access one of the
/// keys used as arguments").
const NOPERM_KEY: &str = "-NOPERM No permissions to access a key\r\n";

#[tokio::test]
async fn counted_keys_meet_key_patterns() {
    let dir = TempDir::new("movable-keys");
    let server = start(&dir, &[]).await;
    let mut c = server.client().await;
    assert_eq!(c.call(&["ACL", "SETUSER", "u", "on", ">pw", "~a*", "+@all"]).await, "+OK\r\n");
    assert_eq!(c.call(&["AUTH", "u", "pw"]).await, "+OK\r\n");
    assert_eq!(c.call(&["ZUNIONSTORE", "a1", "2", "a2", "b1"]).await, NOPERM_KEY);
    assert_eq!(c.call(&["ZUNIONSTORE", "a1", "2", "a2", "a3"]).await, ":0\r\n");
    assert_eq!(c.call(&["ZMPOP", "2", "a1", "b1", "MIN"]).await, NOPERM_KEY);
    assert_eq!(c.call(&["BZMPOP", "0.01", "2", "a1", "b1", "MIN"]).await, NOPERM_KEY);
    assert_eq!(c.call(&["ZINTERCARD", "1", "b"]).await, NOPERM_KEY);
    assert_eq!(c.call(&["ZINTERCARD", "1", "a"]).await, ":0\r\n");
    server.stop().await;
}
