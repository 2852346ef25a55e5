//! Intersection, union and difference of sets, shared by SINTER, SUNION, SDIFF, their
//! *STORE forms and SINTERCARD (Redis' `sinterGenericCommand` and
//! `sunionDiffGenericCommand`): every key is type-checked first, a missing key is an empty
//! set, a *STORE replaces the destination (deleted when the result is empty) in one record.

use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Entry, Value};
use bytes::Bytes;
use std::collections::HashSet;

#[derive(Clone, Copy, PartialEq)]
pub enum Op {
    Inter,
    Union,
    Diff,
}

/// Runs `op` over `keys`; with `dest`, stores the result there and replies with its size,
/// else replies with the members.
pub fn run(ctx: &mut Ctx<'_>, keys: &[&[u8]], dest: Option<&[u8]>, op: Op) -> CmdResult {
    let mut all = keys.to_vec();
    all.extend(dest);
    let (result, lsn) = ctx.db().batch(&all, |txn| -> Result<HashSet<Bytes>, CmdError> {
        let sets = sources(keys, |k| txn.get(k).map(|e| &e.value))?;
        let result = combine(&sets, op);
        if let Some(dest) = dest {
            if result.is_empty() {
                txn.remove(dest);
            } else {
                txn.put(dest, Entry::new(Value::Set(Box::new(result.clone()))));
            }
        }
        Ok(result)
    })?;
    ctx.wrote(lsn);
    let result = result?;
    if dest.is_some() {
        ctx.reply.int(result.len() as i64);
    } else {
        ctx.reply.set(result.len());
        for member in &result {
            ctx.reply.bulk(member);
        }
    }
    Ok(())
}

/// The sets at `keys` (None for a missing key); WRONGTYPE if any holds another type.
fn sources<'v>(keys: &[&[u8]], mut get: impl FnMut(&[u8]) -> Option<&'v Value>) -> Result<Vec<Option<&'v HashSet<Bytes>>>, CmdError> {
    keys.iter()
        .map(|k| match get(k) {
            None => Ok(None),
            Some(Value::Set(s)) => Ok(Some(&**s)),
            Some(_) => Err(CmdError::WrongType),
        })
        .collect()
}

fn combine(sets: &[Option<&HashSet<Bytes>>], op: Op) -> HashSet<Bytes> {
    match op {
        Op::Inter => {
            if sets.iter().any(|s| s.is_none()) {
                return HashSet::new();
            }
            let mut order: Vec<&HashSet<Bytes>> = sets.iter().flatten().copied().collect();
            order.sort_by_key(|s| s.len());
            order[0].iter().filter(|m| order[1..].iter().all(|s| s.contains(*m))).cloned().collect()
        }
        Op::Union => sets.iter().flatten().flat_map(|s| s.iter().cloned()).collect(),
        Op::Diff => match sets[0] {
            None => HashSet::new(),
            Some(first) => first.iter().filter(|m| !sets[1..].iter().flatten().any(|s| s.contains(*m))).cloned().collect(),
        },
    }
}

/// SINTERCARD numkeys key [key ...] [LIMIT limit]: the size of the intersection, counting
/// stops at `limit` (0: none).
pub fn intercard(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let numkeys = match arg_i64(args.get(1)) {
        Ok(n) if n > 0 => n as u64,
        _ => return Err(CmdError::msg("ERR numkeys should be greater than 0")),
    };
    if numkeys > (args.len() - 2) as u64 {
        return Err(CmdError::msg("ERR Number of keys can't be greater than number of args"));
    }
    let keys: Vec<&[u8]> = (2..2 + numkeys as usize).map(|i| args.get(i)).collect();
    let mut limit = 0usize;
    let mut j = 2 + keys.len();
    while j < args.len() {
        if is(args.get(j), "limit") && j + 1 < args.len() {
            limit = match arg_i64(args.get(j + 1)) {
                Ok(n) if n >= 0 => n as usize,
                _ => return Err(CmdError::msg("ERR LIMIT can't be negative")),
            };
            j += 2;
        } else {
            return Err(CmdError::Syntax);
        }
    }
    let (count, _) = ctx.db().batch(&keys, |txn| -> Result<usize, CmdError> {
        let sets = sources(&keys, |k| txn.get(k).map(|e| &e.value))?;
        if sets.iter().any(|s| s.is_none()) {
            return Ok(0);
        }
        let mut order: Vec<&HashSet<Bytes>> = sets.iter().flatten().copied().collect();
        order.sort_by_key(|s| s.len());
        let matches = order[0].iter().filter(|m| order[1..].iter().all(|s| s.contains(*m)));
        Ok(if limit == 0 { matches.count() } else { matches.take(limit).count() })
    })?;
    ctx.reply.int(count? as i64);
    Ok(())
}
