//! Union, intersection and difference of sorted sets (and plain sets, whose members score 1),
//! shared by ZUNION, ZINTER, ZDIFF, their *STORE forms and ZINTERCARD: Redis'
//! `zunionInterDiffGenericCommand`, argument order and errors included.

use super::zrange::store_zset;
use super::zrangebyscore::write_members;
use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::number::parse_f64;
use crate::resp::Args;
use basalt_storage::{Value, ZSet};
use bytes::Bytes;
use std::collections::HashMap;

#[derive(Clone, Copy, PartialEq)]
pub enum Op {
    Union,
    Inter,
    Diff,
}

/// What the command does with the result.
#[derive(Clone, Copy, PartialEq)]
pub enum Output {
    /// ZUNION/ZINTER/ZDIFF: reply with the members ([WITHSCORES] allowed).
    Reply,
    /// The *STORE forms: the destination is `args[1]`.
    Store,
    /// ZINTERCARD: only the size ([LIMIT] allowed).
    Cardinality,
}

#[derive(Clone, Copy)]
enum Aggregate {
    Sum,
    Min,
    Max,
}

/// One input: its members with scores (empty when the key is missing) and its weight.
struct Source {
    members: Vec<(Bytes, f64)>,
    weight: f64,
}

/// Runs the command; `numkeys_at` is the index of the numkeys argument.
pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>, op: Op, output: Output, numkeys_at: usize, name: &str) -> CmdResult {
    let numkeys = arg_i64(args.get(numkeys_at))?;
    if numkeys < 1 {
        return Err(CmdError::msg(format!("ERR at least 1 input key is needed for '{name}' command")));
    }
    if numkeys as u64 > (args.len() - numkeys_at - 1) as u64 {
        return Err(CmdError::Syntax);
    }
    let first = numkeys_at + 1;
    let keys: Vec<&[u8]> = (first..first + numkeys as usize).map(|i| args.get(i)).collect();
    let dest = (output == Output::Store).then(|| args.get(1));
    let mut all_keys = keys.clone();
    all_keys.extend(dest);
    // The result, and a count: the stored or counted size, or 1 for a reply WITHSCORES.
    let (result, lsn) = ctx.db().batch(&all_keys, |txn| -> Result<(ZSet, usize), CmdError> {
        // Types are checked before the options are parsed, as Redis does.
        let mut sources = Vec::with_capacity(keys.len());
        for key in &keys {
            let members = match txn.get(key).map(|e| &e.value) {
                None => Vec::new(),
                Some(Value::ZSet(z)) => z.iter().map(|(m, s)| (m.clone(), s)).collect(),
                Some(Value::Set(s)) => s.iter().map(|m| (m.clone(), 1.0)).collect(),
                Some(_) => return Err(CmdError::WrongType),
            };
            sources.push(Source { members, weight: 1.0 });
        }
        let opts = parse_options(&args, first + keys.len(), op, output, &mut sources)?;
        if output == Output::Cardinality {
            return Ok((ZSet::new(), intersection_size(&sources, opts.limit)));
        }
        let result = combine(sources, op, opts.aggregate);
        if let Some(dest) = dest {
            let stored = store_zset(txn, dest, result);
            return Ok((ZSet::new(), stored));
        }
        Ok((result, usize::from(opts.with_scores)))
    })?;
    ctx.wrote(lsn);
    let (zset, n) = result?;
    match output {
        Output::Reply => {
            let members: Vec<(Bytes, f64)> = zset.iter().map(|(m, s)| (m.clone(), s)).collect();
            write_members(ctx.reply, &members, n == 1);
        }
        Output::Store | Output::Cardinality => ctx.reply.int(n as i64),
    }
    Ok(())
}

struct Options {
    aggregate: Aggregate,
    with_scores: bool,
    /// ZINTERCARD's LIMIT (0: none).
    limit: usize,
}

fn parse_options(args: &Args<'_>, mut j: usize, op: Op, output: Output, sources: &mut [Source]) -> Result<Options, CmdError> {
    let mut opts = Options { aggregate: Aggregate::Sum, with_scores: false, limit: 0 };
    let weighted = op != Op::Diff && output != Output::Cardinality;
    while j < args.len() {
        let remaining = args.len() - j;
        let opt = args.get(j);
        if weighted && remaining > sources.len() && is(opt, "weights") {
            for (i, source) in sources.iter_mut().enumerate() {
                source.weight = parse_f64(args.get(j + 1 + i)).ok_or_else(|| CmdError::msg("ERR weight value is not a float"))?;
            }
            j += 1 + sources.len();
        } else if weighted && remaining >= 2 && is(opt, "aggregate") {
            let which = args.get(j + 1);
            opts.aggregate = if is(which, "sum") {
                Aggregate::Sum
            } else if is(which, "min") {
                Aggregate::Min
            } else if is(which, "max") {
                Aggregate::Max
            } else {
                return Err(CmdError::Syntax);
            };
            j += 2;
        } else if output == Output::Reply && is(opt, "withscores") {
            opts.with_scores = true;
            j += 1;
        } else if output == Output::Cardinality && remaining >= 2 && is(opt, "limit") {
            match arg_i64(args.get(j + 1)) {
                Ok(n) if n >= 0 => opts.limit = n as usize,
                _ => return Err(CmdError::msg("ERR LIMIT can't be negative")),
            }
            j += 2;
        } else {
            return Err(CmdError::Syntax);
        }
    }
    Ok(opts)
}

/// `weight * score`, with Redis' NaN rule (0 * inf counts as 0).
fn weighted(score: f64, weight: f64) -> f64 {
    let v = score * weight;
    if v.is_nan() {
        0.0
    } else {
        v
    }
}

fn aggregate(acc: &mut f64, v: f64, how: Aggregate) {
    match how {
        Aggregate::Sum => {
            *acc += v;
            // inf + -inf
            if acc.is_nan() {
                *acc = 0.0;
            }
        }
        Aggregate::Min => *acc = acc.min(v),
        Aggregate::Max => *acc = acc.max(v),
    }
}

fn combine(mut sources: Vec<Source>, op: Op, how: Aggregate) -> ZSet {
    let mut out = ZSet::new();
    match op {
        Op::Diff => {
            let mut rest = sources.split_off(1);
            let first = sources.pop().expect("numkeys >= 1");
            let others: Vec<HashMap<Bytes, f64>> = rest.iter_mut().map(|s| std::mem::take(&mut s.members).into_iter().collect()).collect();
            for (member, score) in first.members {
                if !others.iter().any(|o| o.contains_key(&member)) {
                    out.insert(member, score);
                }
            }
        }
        Op::Inter => {
            // From the smallest input, as Redis iterates (the order of a float sum matters).
            sources.sort_by_key(|s| s.members.len());
            if sources.iter().any(|s| s.members.is_empty()) {
                return out;
            }
            let maps: Vec<HashMap<&Bytes, f64>> = sources[1..].iter().map(|s| s.members.iter().map(|(m, v)| (m, *v)).collect()).collect();
            'member: for (member, score) in &sources[0].members {
                let mut acc = weighted(*score, sources[0].weight);
                for (i, map) in maps.iter().enumerate() {
                    match map.get(member) {
                        Some(v) => aggregate(&mut acc, weighted(*v, sources[i + 1].weight), how),
                        None => continue 'member,
                    }
                }
                out.insert(member.clone(), acc);
            }
        }
        Op::Union => {
            sources.sort_by_key(|s| s.members.len());
            let mut acc: HashMap<Bytes, f64> = HashMap::new();
            for source in sources {
                for (member, score) in source.members {
                    let v = weighted(score, source.weight);
                    match acc.get_mut(&member) {
                        Some(a) => aggregate(a, v, how),
                        None => {
                            acc.insert(member, v);
                        }
                    }
                }
            }
            for (member, score) in acc {
                out.insert(member, score);
            }
        }
    }
    out
}

/// ZINTERCARD: the size of the intersection, counting stops at `limit` (0: no limit).
fn intersection_size(sources: &[Source], limit: usize) -> usize {
    let mut order: Vec<&Source> = sources.iter().collect();
    order.sort_by_key(|s| s.members.len());
    if order.iter().any(|s| s.members.is_empty()) {
        return 0;
    }
    let sets: Vec<std::collections::HashSet<&Bytes>> = order[1..].iter().map(|s| s.members.iter().map(|(m, _)| m).collect()).collect();
    let mut n = 0;
    for (member, _) in &order[0].members {
        if sets.iter().all(|s| s.contains(member)) {
            n += 1;
            if n == limit {
                break;
            }
        }
    }
    n
}
