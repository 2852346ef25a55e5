//! ZRANGEBYSCORE key min max [WITHSCORES] [LIMIT offset count]; also the range machinery
//! the range commands use (score, lex and index ranges, LIMIT, reverse, replies with scores).

use super::util::resolve_range;
use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::number::parse_f64;
use crate::resp::{Args, Reply};
use basalt_storage::ZSet;
use bytes::Bytes;
use std::ops::Bound;

/// `1.5`, `(1.5`, `-inf`, `+inf`.
pub fn parse_score_bound(arg: &[u8]) -> Result<Bound<f64>, CmdError> {
    let bad = || CmdError::msg("ERR min or max is not a float");
    match arg.strip_prefix(b"(") {
        Some(rest) => parse_f64(rest).map(Bound::Excluded).ok_or_else(bad),
        None => parse_f64(arg).map(Bound::Included).ok_or_else(bad),
    }
}

/// `[a`, `(a`, `-`, `+` (BYLEX); `-`/`+` are the unbounded ends.
#[derive(Clone)]
pub enum LexBound {
    Min,
    Max,
    Inclusive(Vec<u8>),
    Exclusive(Vec<u8>),
}

pub fn parse_lex_bound(arg: &[u8]) -> Result<LexBound, CmdError> {
    match arg.first() {
        Some(b'-') if arg.len() == 1 => Ok(LexBound::Min),
        Some(b'+') if arg.len() == 1 => Ok(LexBound::Max),
        Some(b'[') => Ok(LexBound::Inclusive(arg[1..].to_vec())),
        Some(b'(') => Ok(LexBound::Exclusive(arg[1..].to_vec())),
        _ => Err(CmdError::msg("ERR min or max not valid string range item")),
    }
}

fn above_lex(m: &[u8], min: &LexBound) -> bool {
    match min {
        LexBound::Min => true,
        LexBound::Max => false,
        LexBound::Inclusive(v) => m >= &v[..],
        LexBound::Exclusive(v) => m > &v[..],
    }
}

fn below_lex(m: &[u8], max: &LexBound) -> bool {
    match max {
        LexBound::Min => false,
        LexBound::Max => true,
        LexBound::Inclusive(v) => m <= &v[..],
        LexBound::Exclusive(v) => m < &v[..],
    }
}

/// Which members a range selects.
pub enum Range {
    Index(i64, i64),
    Score(Bound<f64>, Bound<f64>),
    Lex(LexBound, LexBound),
}

pub struct Query {
    pub range: Range,
    pub reverse: bool,
    /// (offset, count); a negative count means all.
    pub limit: Option<(i64, i64)>,
    pub with_scores: bool,
}

/// The selected members with their scores, in reply order.
pub fn select(z: &ZSet, q: &Query) -> Vec<(Bytes, f64)> {
    let mut picked: Vec<(Bytes, f64)> = match &q.range {
        Range::Index(start, stop) => {
            let Some((a, b)) = resolve_range(*start, *stop, z.len()) else { return Vec::new() };
            if q.reverse {
                z.iter().rev().skip(a).take(b - a + 1).map(|(m, s)| (m.clone(), s)).collect()
            } else {
                z.iter().skip(a).take(b - a + 1).map(|(m, s)| (m.clone(), s)).collect()
            }
        }
        Range::Score(min, max) => {
            let mut v: Vec<_> = z.range_by_score(*min, *max).map(|(m, s)| (m.clone(), s)).collect();
            if q.reverse {
                v.reverse();
            }
            v
        }
        // As Redis walks its skiplist: from the first member inside the bound, while members
        // stay inside (members are meant to share one score; with mixed scores this is
        // what Redis returns too).
        Range::Lex(min, max) if q.reverse => z
            .iter()
            .rev()
            .skip_while(|(m, _)| !below_lex(m, max))
            .take_while(|(m, _)| above_lex(m, min))
            .map(|(m, s)| (m.clone(), s))
            .collect(),
        Range::Lex(min, max) => z
            .iter()
            .skip_while(|(m, _)| !above_lex(m, min))
            .take_while(|(m, _)| below_lex(m, max))
            .map(|(m, s)| (m.clone(), s))
            .collect(),
    };
    if let Some((offset, count)) = q.limit {
        if offset < 0 {
            return Vec::new();
        }
        let offset = (offset as usize).min(picked.len());
        picked.drain(..offset);
        if count >= 0 {
            picked.truncate(count as usize);
        }
    }
    picked
}

/// Writes the members (and scores: pairs in RESP3, flat in RESP2).
pub fn write_members(reply: &mut Reply, members: &[(Bytes, f64)], with_scores: bool) {
    if with_scores && !reply.resp3 {
        reply.array(members.len() * 2);
    } else {
        reply.array(members.len());
    }
    for (member, score) in members {
        if with_scores && reply.resp3 {
            reply.array(2);
        }
        reply.bulk(member);
        if with_scores {
            reply.double(*score);
        }
    }
}

/// Parses `LIMIT offset count` at `args[i]`.
pub fn parse_limit(args: &Args<'_>, i: usize) -> Result<(i64, i64), CmdError> {
    if i + 2 >= args.len() {
        return Err(CmdError::Syntax);
    }
    Ok((arg_i64(args.get(i + 1))?, arg_i64(args.get(i + 2))?))
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::zrange::generic(ctx, args, 1, None, Some(super::zrange::Kind::Score), Some(false))
}
