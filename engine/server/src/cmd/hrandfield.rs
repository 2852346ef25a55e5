//! HRANDFIELD key [count [WITHVALUES]]: random fields without removing them; a negative
//! count may repeat fields, a positive one returns distinct fields.

use super::zrandmember::pick;
use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let mut count = None;
    let mut with_values = false;
    if let Some(arg) = args.try_get(2) {
        let n = arg_i64(arg)?;
        if args.len() > 4 || (args.len() == 4 && !is(args.get(3), "withvalues")) {
            return Err(CmdError::Syntax);
        }
        with_values = args.len() == 4;
        // Repeated fields are held in memory before the reply, so the count is bounded.
        if n < -(1 << 24) {
            return Err(CmdError::msg("ERR value is out of range"));
        }
        count = Some(n);
    }
    let picked = ctx.db().read(args.get(1), |entry| match entry.map(|e| &e.value) {
        None => Ok(None),
        Some(Value::Hash(h)) => {
            let all: Vec<(Bytes, Bytes)> = h.iter().map(|(f, v)| (f.clone(), v.clone())).collect();
            Ok(Some(pick(&all, count.unwrap_or(1))))
        }
        Some(_) => Err(CmdError::WrongType),
    })??;
    let Some(count) = count else {
        match picked.and_then(|p| p.into_iter().next()) {
            Some((field, _)) => ctx.reply.bulk(&field),
            None => ctx.reply.null(),
        }
        return Ok(());
    };
    let picked = if count == 0 { Vec::new() } else { picked.unwrap_or_default() };
    let pairs = with_values && ctx.reply.resp3;
    ctx.reply.array(if with_values && !pairs { picked.len() * 2 } else { picked.len() });
    for (field, value) in &picked {
        if pairs {
            ctx.reply.array(2);
        }
        ctx.reply.bulk(field);
        if with_values {
            ctx.reply.bulk(value);
        }
    }
    Ok(())
}
