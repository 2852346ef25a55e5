//! ZRANDMEMBER key [count [WITHSCORES]]: random members without removing them; a negative
//! count may repeat members, a positive one returns distinct members.

use super::util::random_u64;
use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;
use bytes::Bytes;

/// Picks `count` items: distinct ones (all of them when `count` reaches the length) for a
/// positive count, `|count|` draws that may repeat for a negative one.
pub fn pick<T: Clone>(items: &[T], count: i64) -> Vec<T> {
    if items.is_empty() {
        return Vec::new();
    }
    let draw = |n: usize| (random_u64() % n as u64) as usize;
    if count < 0 {
        return (0..count.unsigned_abs()).map(|_| items[draw(items.len())].clone()).collect();
    }
    let mut chosen = items.to_vec();
    let n = (count as usize).min(chosen.len());
    for i in 0..n {
        let j = i + draw(chosen.len() - i);
        chosen.swap(i, j);
    }
    chosen.truncate(n);
    chosen
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let mut count = None;
    let mut with_scores = false;
    if let Some(arg) = args.try_get(2) {
        let n = arg_i64(arg)?;
        if args.len() > 4 || (args.len() == 4 && !is(args.get(3), "withscores")) {
            return Err(CmdError::Syntax);
        }
        with_scores = args.len() == 4;
        // Repeated members are held in memory before the reply, so the count is bounded.
        if n < -(1 << 24) {
            return Err(CmdError::msg("ERR value is out of range"));
        }
        count = Some(n);
    }
    let picked = ctx.db().read(args.get(1), |entry| match entry.map(|e| &e.value) {
        None => Ok(None),
        Some(Value::ZSet(z)) => {
            let all: Vec<(Bytes, f64)> = z.iter().map(|(m, s)| (m.clone(), s)).collect();
            Ok(Some(pick(&all, count.unwrap_or(1))))
        }
        Some(_) => Err(CmdError::WrongType),
    })??;
    let Some(count) = count else {
        match picked.and_then(|p| p.into_iter().next()) {
            Some((member, _)) => ctx.reply.bulk(&member),
            None => ctx.reply.null(),
        }
        return Ok(());
    };
    let picked = if count == 0 { Vec::new() } else { picked.unwrap_or_default() };
    let pairs = with_scores && ctx.reply.resp3;
    ctx.reply.array(if with_scores && !pairs { picked.len() * 2 } else { picked.len() });
    for (member, score) in &picked {
        if pairs {
            ctx.reply.array(2);
        }
        ctx.reply.bulk(member);
        if with_scores {
            ctx.reply.double(*score);
        }
    }
    Ok(())
}
