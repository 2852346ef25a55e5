//! SORT key [BY nosort] [LIMIT offset count] [ASC|DESC] [ALPHA] [STORE destination]: the
//! elements of a list, set or sorted set, ordered as numbers (or as bytes with ALPHA); with
//! STORE they become the list `destination` (deleted when empty) in one log record and the
//! reply is their count. BY with a constant (no `*`) does not sort; a set is then sorted
//! as bytes from a script or with STORE, as Redis does, so the result is the same on every
//! run. `GET #` / `GET pattern` (a string key, or `key->field` of a hash, `*` replaced by the
//! element) need a user with access to every key, as in Redis; BY with a `*` pattern, and
//! GET with STORE, are refused.

use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::number::parse_f64;
use crate::resp::Args;
use basalt_storage::{Entry, Value};
use bytes::Bytes;
use std::collections::VecDeque;

struct Options<'a> {
    nosort: bool,
    desc: bool,
    alpha: bool,
    limit: Option<(i64, i64)>,
    store: Option<&'a [u8]>,
    gets: Vec<&'a [u8]>,
}

fn parse<'a>(args: &Args<'a>) -> Result<Options<'a>, CmdError> {
    let mut o = Options { nosort: false, desc: false, alpha: false, limit: None, store: None, gets: Vec::new() };
    let mut i = 2;
    while i < args.len() {
        let arg = args.get(i);
        let next = args.try_get(i + 1);
        if is(arg, "asc") {
            o.desc = false;
        } else if is(arg, "desc") {
            o.desc = true;
        } else if is(arg, "alpha") {
            o.alpha = true;
        } else if is(arg, "limit") && i + 2 < args.len() {
            o.limit = Some((arg_i64(args.get(i + 1))?, arg_i64(args.get(i + 2))?));
            i += 2;
        } else if is(arg, "store") && next.is_some() {
            o.store = next;
            i += 1;
        } else if is(arg, "by") && next.is_some_and(|p| !p.contains(&b'*')) {
            // A constant pattern (`nosort` among them): Redis' dontsort.
            o.nosort = true;
            i += 1;
        } else if let (true, Some(pattern)) = (is(arg, "get"), next) {
            o.gets.push(pattern);
            i += 1;
        } else if is(arg, "by") && next.is_some() {
            return Err(CmdError::msg("ERR SORT BY <pattern> and GET are not supported"));
        } else {
            return Err(CmdError::Syntax);
        }
        i += 1;
    }
    Ok(o)
}

/// The elements of `value` in the order SORT gives them. `stable_sets`: a set that is not
/// to be sorted is sorted as bytes all the same (a script, STORE).
fn sorted(value: Option<&Value>, o: &Options<'_>, stable_sets: bool) -> Result<Vec<Bytes>, CmdError> {
    if o.nosort && stable_sets && matches!(value, Some(Value::Set(_))) {
        let forced = Options { nosort: false, alpha: true, gets: Vec::new(), ..*o };
        return sorted(value, &forced, false);
    }
    let mut items: Vec<Bytes> = match value {
        None => Vec::new(),
        Some(Value::List(l)) => l.iter().cloned().collect(),
        Some(Value::Set(s)) => s.iter().cloned().collect(),
        Some(Value::ZSet(z)) => z.iter().map(|(m, _)| m.clone()).collect(),
        Some(_) => return Err(CmdError::WrongType),
    };
    if !o.nosort {
        if o.alpha {
            items.sort();
        } else {
            let mut keyed = Vec::with_capacity(items.len());
            for item in items {
                let n = parse_f64(&item).ok_or_else(|| CmdError::msg("ERR One or more scores can't be converted into double"))?;
                keyed.push((n, item));
            }
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
            items = keyed.into_iter().map(|(_, item)| item).collect();
        }
        if o.desc {
            items.reverse();
        }
    }
    if let Some((offset, count)) = o.limit {
        let start = (offset.max(0) as usize).min(items.len());
        let end = if count < 0 { items.len() } else { start.saturating_add(count as usize).min(items.len()) };
        items = items[start..end].to_vec();
    }
    Ok(items)
}

/// What `GET pattern` gives for `element`: the element itself for `#`, else the string at the
/// key the pattern names (or the field after `->` of the hash there); None for anything else.
fn lookup(ctx: &Ctx<'_>, pattern: &[u8], element: &[u8]) -> Result<Option<Bytes>, CmdError> {
    if pattern == b"#" {
        return Ok(Some(Bytes::copy_from_slice(element)));
    }
    let Some(star) = pattern.iter().position(|&b| b == b'*') else { return Ok(None) };
    let arrow = pattern[star + 1..].windows(2).position(|w| w == b"->").map(|at| star + 1 + at).filter(|&at| at + 2 < pattern.len());
    let (key_pattern, field) = match arrow {
        Some(at) => (&pattern[..at], Some(&pattern[at + 2..])),
        None => (pattern, None),
    };
    let key = [&key_pattern[..star], element, &key_pattern[star + 1..]].concat();
    Ok(ctx.db().read(&key, |entry| match (entry.map(|e| &e.value), field) {
        (Some(Value::Str(s)), None) => Some(s.clone()),
        (Some(Value::Hash(h)), Some(field)) => h.get(field).cloned(),
        _ => None,
    })?)
}

/// GET reads keys the arguments do not name: Redis allows it only to a user with access to
/// every key.
fn may_read_any_key(ctx: &Ctx<'_>) -> bool {
    let user = ctx.session.user.as_deref().unwrap_or("default");
    ctx.shared.auth.acl().is_none_or(|acl| acl.unrestricted(user) || acl.user(user).is_some_and(|u| u.all_keys()))
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let o = parse(&args)?;
    let key = args.get(1);
    if !o.gets.is_empty() && !may_read_any_key(ctx) {
        return Err(CmdError::msg("ERR GET option of SORT denied due to insufficient ACL permissions."));
    }
    let from_script = crate::multi::in_transaction() && ctx.shared.scripts.running();
    let Some(destination) = o.store else {
        let items = ctx.db().read(key, |entry| sorted(entry.map(|e| &e.value), &o, from_script))??;
        if o.gets.is_empty() {
            ctx.reply.array(items.len());
            for item in &items {
                ctx.reply.bulk(item);
            }
            return Ok(());
        }
        let mut found = Vec::with_capacity(items.len() * o.gets.len());
        for item in &items {
            for pattern in &o.gets {
                found.push(lookup(ctx, pattern, item)?);
            }
        }
        ctx.reply.array(found.len());
        for value in &found {
            match value {
                Some(v) => ctx.reply.bulk(v),
                None => ctx.reply.null(),
            }
        }
        return Ok(());
    };
    if !o.gets.is_empty() {
        return Err(CmdError::msg("ERR SORT GET with STORE is not supported"));
    }
    let (stored, lsn) = ctx.db().batch(&[key, destination], |txn| -> Result<usize, CmdError> {
        let items = sorted(txn.get(key).map(|e| &e.value), &o, true)?;
        let n = items.len();
        if n == 0 {
            txn.remove(destination);
        } else {
            txn.put(destination, Entry::new(Value::List(VecDeque::from(items))));
        }
        Ok(n)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(stored? as i64);
    Ok(())
}
