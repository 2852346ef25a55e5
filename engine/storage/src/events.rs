//! Key events: what happened to which key, told to the hook the server sets with
//! [`Db::set_key_events`](crate::Db::set_key_events) (its keyspace notifications). The store
//! reports; what is published, and whether, is the server's business.

/// What happened to a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyEvent {
    /// A write created the key.
    Created,
    /// A write changed an existing key.
    Changed,
    /// A write removed the key (DEL, or its collection became empty).
    Removed,
    /// Its expiry passed and it was removed (on access or by the background sweep).
    Expired,
}

/// Called with (database, key, event) while the key's shard is locked: it must not touch the
/// store. Expired events come from the background sweep's thread too.
pub type KeyEventHook = Box<dyn Fn(usize, &[u8], KeyEvent) + Send + Sync>;
