//! SORT key [BY nosort] [LIMIT offset count] [ASC|DESC] [ALPHA] [STORE destination]: the
//! elements of a list, set or sorted set, ordered as numbers (or as bytes with ALPHA); with
//! STORE they become the list `destination` (deleted when empty) in one log record and the
//! reply is their count. BY with a pattern and GET look up other keys and are refused.

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
}

fn parse<'a>(args: &Args<'a>) -> Result<Options<'a>, CmdError> {
    let mut o = Options { nosort: false, desc: false, alpha: false, limit: None, store: None };
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
        } else if is(arg, "by") && next.is_some_and(|p| is(p, "nosort")) {
            o.nosort = true;
            i += 1;
        } else if (is(arg, "by") || is(arg, "get")) && next.is_some() {
            return Err(CmdError::msg("ERR SORT BY <pattern> and GET are not supported"));
        } else {
            return Err(CmdError::Syntax);
        }
        i += 1;
    }
    Ok(o)
}

/// The elements of `value` in the order SORT gives them.
fn sorted(value: Option<&Value>, o: &Options<'_>) -> Result<Vec<Bytes>, CmdError> {
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

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let o = parse(&args)?;
    let key = args.get(1);
    let Some(destination) = o.store else {
        let items = ctx.db().read(key, |entry| sorted(entry.map(|e| &e.value), &o))??;
        ctx.reply.array(items.len());
        for item in &items {
            ctx.reply.bulk(item);
        }
        return Ok(());
    };
    let (stored, lsn) = ctx.db().batch(&[key, destination], |txn| -> Result<usize, CmdError> {
        let items = sorted(txn.get(key).map(|e| &e.value), &o)?;
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
