//! ZPOPMIN key [count]: removes and returns the members with the lowest scores. Also the pop
//! every ZPOP/BZPOP/ZMPOP variant shares (Redis' `genericZpopCommand`) and its reply shapes.

use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::{Args, Reply};
use basalt_storage::{Delta, Value};
use bytes::Bytes;

/// What a pop took: the key it came from and the members with their scores.
pub type Popped = (Bytes, Vec<(Bytes, f64)>);

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    pop_command(ctx, args, false)
}

/// ZPOPMIN and ZPOPMAX: a flat [member, score, ...] array, or with a count in RESP3 an array of
/// [member, score] pairs.
pub fn pop_command(ctx: &mut Ctx<'_>, args: Args<'_>, max: bool) -> CmdResult {
    if args.len() > 3 {
        return Err(CmdError::Syntax);
    }
    let count = match args.try_get(2) {
        None => None,
        Some(arg) => match arg_i64(arg)? {
            n if n < 0 => return Err(CmdError::msg("ERR value is out of range, must be positive")),
            n => Some(n as usize),
        },
    };
    let nested = ctx.reply.resp3 && count.is_some();
    match pop_first(ctx, &[args.get(1)], max, count.unwrap_or(1))? {
        None => ctx.reply.array(0),
        Some((_, members)) => write_members(ctx.reply, &members, nested),
    }
    Ok(())
}

/// Pops up to `count` members from the first of `keys` that holds a sorted set (WRONGTYPE at
/// the first key of another type, as Redis checks them in order); None when none exists.
/// Each key's pop is one log record.
pub fn pop_first(ctx: &mut Ctx<'_>, keys: &[&[u8]], max: bool, count: usize) -> Result<Option<Popped>, CmdError> {
    for key in keys {
        let (popped, lsn) = ctx.db().update(key, |slot| -> Result<Option<Vec<(Bytes, f64)>>, CmdError> {
            match slot.get().map(|e| &e.value) {
                None => return Ok(None),
                Some(Value::ZSet(_)) => {}
                Some(_) => return Err(CmdError::WrongType),
            }
            if count == 0 {
                return Ok(Some(Vec::new()));
            }
            let Some(Value::ZSet(z)) = slot.get().map(|e| &e.value) else { return Ok(None) };
            let taken: Vec<(Bytes, f64)> = if max {
                z.iter().rev().take(count).map(|(m, s)| (m.clone(), s)).collect()
            } else {
                z.iter().take(count).map(|(m, s)| (m.clone(), s)).collect()
            };
            for (member, _) in &taken {
                slot.apply(Delta::ZRem(member.clone()));
            }
            Ok(Some(taken))
        })?;
        ctx.wrote(lsn);
        if let Some(members) = popped? {
            return Ok(Some((Bytes::copy_from_slice(key), members)));
        }
    }
    Ok(None)
}

/// The members as a flat [member, score, ...] array, or as [member, score] pairs (`nested`).
pub fn write_members(reply: &mut Reply, members: &[(Bytes, f64)], nested: bool) {
    reply.array(if nested { members.len() } else { members.len() * 2 });
    for (member, score) in members {
        if nested {
            reply.array(2);
        }
        reply.bulk(member);
        reply.double(*score);
    }
}
