//! Patterns several commands share: type checks, Redis index ranges, expiry arguments,
//! collection access inside `Db::update`, SCAN-style option parsing.

use super::{arg_i64, is};
use crate::error::CmdError;
use crate::resp::Args;
use basalt_storage::{Delta, Entry, Slot, Value};
use bytes::Bytes;

/// HLEN, LLEN, SCARD, ZCARD, XLEN: the element count `count` reads from the key's value (None:
/// another type, WRONGTYPE), 0 for a missing key.
pub fn reply_len(ctx: &mut super::Ctx<'_>, key: &[u8], count: fn(&Value) -> Option<usize>) -> crate::error::CmdResult {
    let len = ctx.db().read(key, |entry| match entry.map(|e| &e.value) {
        None => Ok(0),
        Some(value) => count(value).ok_or(CmdError::WrongType),
    })??;
    ctx.reply.int(len as i64);
    Ok(())
}

/// The string a key holds, or WRONGTYPE.
pub fn as_str(entry: &Entry) -> Result<&Bytes, CmdError> {
    match &entry.value {
        Value::Str(b) => Ok(b),
        _ => Err(CmdError::WrongType),
    }
}

/// Redis' index arithmetic (LRANGE, GETRANGE, ZRANGE): negative counts from the end; the
/// inclusive range clamped to `len`, or None when empty.
pub fn resolve_range(start: i64, stop: i64, len: usize) -> Option<(usize, usize)> {
    let len = len as i64;
    let mut start = if start < 0 { len + start } else { start };
    let mut stop = if stop < 0 { len + stop } else { stop };
    if start < 0 {
        start = 0;
    }
    if stop >= len {
        stop = len - 1;
    }
    if start > stop || start >= len || len == 0 {
        return None;
    }
    if stop < 0 {
        stop = 0;
    }
    Some((start as usize, stop as usize))
}

/// Turns a relative or absolute time argument into an absolute unix-ms deadline, refusing
/// overflow and non-positive relative times as Redis does (`invalid expire time in '<cmd>'`).
pub fn deadline(value: i64, unit_ms: bool, absolute: bool, now_ms: u64, cmd: &'static str) -> Result<i64, CmdError> {
    if value <= 0 {
        return Err(CmdError::InvalidExpire(cmd));
    }
    let ms = if unit_ms { value } else { value.checked_mul(1000).ok_or(CmdError::InvalidExpire(cmd))? };
    if absolute {
        Ok(ms)
    } else {
        ms.checked_add(now_ms as i64).ok_or(CmdError::InvalidExpire(cmd))
    }
}

/// Which expiry a write leaves on the key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Expiry {
    /// Remove any expiry (a plain SET).
    Clear,
    /// Keep the key's expiry (KEEPTTL, or commands that modify in place).
    Keep,
    /// Expire at this unix-ms time (relative times already resolved).
    At(i64),
}

/// Puts `value` under the slot's key with the chosen expiry; a deadline already past deletes
/// the key instead, as Redis does for `SET ... EXAT <past>`.
pub fn put_with_expiry(slot: &mut Slot<'_>, value: Value, expiry: Expiry) {
    let expires_at_ms = match expiry {
        Expiry::Clear => None,
        Expiry::Keep => slot.get().and_then(|e| e.expires_at_ms),
        Expiry::At(at) => {
            if at <= slot.now_ms() as i64 {
                slot.remove();
                return;
            }
            Some(at as u64)
        }
    };
    slot.put(Entry::with_expiry(value, expires_at_ms));
}

/// The collection under the slot's key for a write: created empty by `make` if missing,
/// WRONGTYPE if the key holds another type. `pick` selects the variant.
pub fn collection_mut<'s, T>(
    slot: &'s mut Slot<'_>,
    make: fn() -> Value,
    pick: fn(&mut Value) -> Option<&mut T>,
) -> Result<&'s mut T, CmdError> {
    let fresh = make();
    match slot.get() {
        None => {
            slot.put(Entry::new(fresh));
        }
        // Check the type before get_mut, which marks the key as changed.
        Some(entry) if entry.value.kind() != fresh.kind() => return Err(CmdError::WrongType),
        Some(_) => {}
    }
    let entry = slot.get_mut().expect("entry present");
    pick(&mut entry.value).ok_or(CmdError::WrongType)
}

/// Readies the slot for element-level changes (`Slot::apply`, logged at the cost of the
/// change): a missing key gets an empty collection of `make`'s type (a new key is logged
/// whole, small as it is), a key of another type is WRONGTYPE.
pub fn ensure_collection(slot: &mut Slot<'_>, make: fn() -> Value) -> Result<(), CmdError> {
    let fresh = make();
    match slot.get() {
        None => {
            slot.put(Entry::new(fresh));
            Ok(())
        }
        Some(entry) if entry.value.kind() != fresh.kind() => Err(CmdError::WrongType),
        Some(_) => Ok(()),
    }
}

/// Applies `change` to the collection the slot holds (checked by the caller) and says whether
/// it was counted (a field or member added or removed).
pub fn apply(slot: &mut Slot<'_>, change: Delta) -> bool {
    slot.apply(change).is_some_and(|out| out.counted)
}

/// Like `collection_mut` but never creates: None when the key is missing.
pub fn existing_collection_mut<'s, T>(
    slot: &'s mut Slot<'_>,
    kind: basalt_storage::Kind,
    pick: fn(&mut Value) -> Option<&mut T>,
) -> Result<Option<&'s mut T>, CmdError> {
    match slot.get() {
        None => return Ok(None),
        Some(entry) if entry.value.kind() != kind => return Err(CmdError::WrongType),
        Some(_) => {}
    }
    let entry = slot.get_mut().expect("entry present");
    Ok(pick(&mut entry.value))
}

pub fn pick_hash(v: &mut Value) -> Option<&mut std::collections::HashMap<Bytes, Bytes>> {
    match v {
        Value::Hash(h) => Some(h),
        _ => None,
    }
}

pub fn pick_list(v: &mut Value) -> Option<&mut std::collections::VecDeque<Bytes>> {
    match v {
        Value::List(l) => Some(l),
        _ => None,
    }
}

pub fn pick_set(v: &mut Value) -> Option<&mut std::collections::HashSet<Bytes>> {
    match v {
        Value::Set(s) => Some(s),
        _ => None,
    }
}

pub fn pick_zset(v: &mut Value) -> Option<&mut basalt_storage::ZSet> {
    match v {
        Value::ZSet(z) => Some(z),
        _ => None,
    }
}

pub fn new_hash() -> Value {
    Value::Hash(Default::default())
}

pub fn new_list() -> Value {
    Value::List(Default::default())
}

pub fn new_set() -> Value {
    Value::Set(Default::default())
}

pub fn new_zset() -> Value {
    Value::ZSet(Default::default())
}

/// A SCAN cursor: an unsigned decimal, else `invalid cursor`.
pub fn parse_cursor(arg: &[u8]) -> Result<u64, CmdError> {
    std::str::from_utf8(arg)
        .ok()
        .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|s| s.parse::<u64>().ok())
        .ok_or_else(|| CmdError::msg("ERR invalid cursor"))
}

/// MATCH / COUNT / TYPE / NOVALUES options of the SCAN family.
pub struct ScanOptions<'a> {
    pub pattern: Option<&'a [u8]>,
    pub count: usize,
    pub kind: Option<&'a [u8]>,
    pub novalues: bool,
}

/// Parses SCAN options from `args` (starting after the cursor). `allow_type` for SCAN,
/// `allow_novalues` for HSCAN.
pub fn parse_scan_options<'a>(args: Args<'a>, allow_type: bool, allow_novalues: bool) -> Result<ScanOptions<'a>, CmdError> {
    let mut opts = ScanOptions { pattern: None, count: 10, kind: None, novalues: false };
    let mut i = 0;
    while i < args.len() {
        let name = args.get(i);
        let has_value = i + 1 < args.len();
        if is(name, "match") && has_value {
            let p = args.get(i + 1);
            opts.pattern = if p == b"*" { None } else { Some(p) };
            i += 2;
        } else if is(name, "count") && has_value {
            let n = arg_i64(args.get(i + 1))?;
            if n < 1 {
                return Err(CmdError::Syntax);
            }
            opts.count = n.min(1 << 20) as usize;
            i += 2;
        } else if allow_type && is(name, "type") && has_value {
            opts.kind = Some(args.get(i + 1));
            i += 2;
        } else if allow_novalues && is(name, "novalues") {
            opts.novalues = true;
            i += 1;
        } else {
            return Err(CmdError::Syntax);
        }
    }
    Ok(opts)
}

/// A random number for commands that pick at random (SPOP, SRANDMEMBER): the process'
/// hasher keys mixed with a counter and the clock.
pub fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Relaxed));
    h.write_u64(basalt_storage::now_ms());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::resolve_range;

    #[test]
    fn ranges_as_redis() {
        assert_eq!(resolve_range(0, -1, 3), Some((0, 2)));
        assert_eq!(resolve_range(-100, 100, 3), Some((0, 2)));
        assert_eq!(resolve_range(2, 1, 3), None);
        assert_eq!(resolve_range(5, 10, 3), None);
        assert_eq!(resolve_range(0, -1, 0), None);
        assert_eq!(resolve_range(-1, -1, 3), Some((2, 2)));
    }
}
