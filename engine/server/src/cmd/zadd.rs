//! ZADD key [NX | XX] [GT | LT] [CH] [INCR] score member [score member ...]

use super::util::{ensure_collection, new_zset};
use super::{arg_f64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Delta, Value};
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (mut nx, mut xx, mut gt, mut lt, mut ch, mut incr) = (false, false, false, false, false, false);
    let mut i = 2;
    while i < args.len() {
        let opt = args.get(i);
        if is(opt, "nx") {
            nx = true;
        } else if is(opt, "xx") {
            xx = true;
        } else if is(opt, "gt") {
            gt = true;
        } else if is(opt, "lt") {
            lt = true;
        } else if is(opt, "ch") {
            ch = true;
        } else if is(opt, "incr") {
            incr = true;
        } else {
            break;
        }
        i += 1;
    }
    let elements = args.len() - i;
    if elements == 0 || !elements.is_multiple_of(2) {
        return Err(CmdError::Syntax);
    }
    if nx && xx {
        return Err(CmdError::msg("ERR XX and NX options at the same time are not compatible"));
    }
    if (nx && (gt || lt)) || (gt && lt) {
        return Err(CmdError::msg("ERR GT, LT, and/or NX options at the same time are not compatible"));
    }
    if incr && elements > 2 {
        return Err(CmdError::msg("ERR INCR option supports a single increment-element pair"));
    }
    let mut pairs = Vec::with_capacity(elements / 2);
    for p in (i..args.len()).step_by(2) {
        pairs.push((arg_f64(args.get(p))?, args.get(p + 1)));
    }
    let (result, lsn) = ctx.db().update(args.get(1), |slot| -> Result<(i64, Option<f64>), CmdError> {
        match slot.get().map(|e| &e.value) {
            None if xx => return Ok((0, None)),
            None | Some(Value::ZSet(_)) => {}
            Some(_) => return Err(CmdError::WrongType),
        }
        // Work out every change first so that a refused INCR (NaN) leaves the key untouched.
        let current = |member: &[u8]| match slot.get().map(|e| &e.value) {
            Some(Value::ZSet(z)) => z.score(member),
            _ => None,
        };
        let mut changes: Vec<(&[u8], f64, bool)> = Vec::new();
        let (mut added, mut updated) = (0i64, 0i64);
        let mut incr_result = None;
        for &(score, member) in &pairs {
            // A member named twice sees its own earlier change, as Redis applies pairs in order.
            let earlier = changes.iter().rev().find(|(m, _, _)| *m == member).map(|(_, s, _)| *s);
            match earlier.or_else(|| current(member)) {
                Some(old) => {
                    if nx {
                        continue;
                    }
                    let new = if incr { old + score } else { score };
                    if new.is_nan() {
                        return Err(CmdError::msg("ERR resulting score is not a number (NaN)"));
                    }
                    if (gt && new <= old) || (lt && new >= old) {
                        continue;
                    }
                    incr_result = Some(new);
                    if new != old {
                        updated += 1;
                        changes.push((member, new, false));
                    }
                }
                None => {
                    if xx {
                        continue;
                    }
                    added += 1;
                    incr_result = Some(score);
                    changes.push((member, score, true));
                }
            }
        }
        if !changes.is_empty() {
            ensure_collection(slot, new_zset)?;
            for (member, score, _) in changes {
                slot.apply(Delta::ZAdd(Bytes::copy_from_slice(member), score));
            }
        }
        Ok((if ch { added + updated } else { added }, incr_result))
    })?;
    ctx.wrote(lsn);
    let (count, incr_result) = result?;
    if incr {
        match incr_result {
            Some(score) => ctx.reply.double(score),
            None => ctx.reply.null(),
        }
    } else {
        ctx.reply.int(count);
    }
    Ok(())
}
