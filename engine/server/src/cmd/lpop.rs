//! LPOP key [count]: one element (or null), or with a count an array (null if the key is missing).

use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Delta, Value};
use bytes::Bytes;

/// Pops from the head (`left`) or tail; shared with RPOP.
pub fn pop(ctx: &mut Ctx<'_>, args: Args<'_>, left: bool) -> CmdResult {
    // Redis 7.0 checks the argument count first.
    if args.len() > 3 {
        return Err(CmdError::WrongArgs(if left { "lpop" } else { "rpop" }));
    }
    let count = match args.try_get(2) {
        None => None,
        Some(arg) => {
            let n = arg_i64(arg).map_err(|_| CmdError::msg("ERR value is out of range, must be positive"))?;
            if n < 0 {
                return Err(CmdError::msg("ERR value is out of range, must be positive"));
            }
            Some(n as usize)
        }
    };
    let (popped, lsn) = ctx.db().update(args.get(1), |slot| -> Result<Option<Vec<Bytes>>, CmdError> {
        match slot.get().map(|e| &e.value) {
            None => return Ok(None),
            Some(Value::List(_)) if count == Some(0) => return Ok(Some(Vec::new())),
            Some(Value::List(_)) => {}
            Some(_) => return Err(CmdError::WrongType),
        }
        let mut out = Vec::new();
        for _ in 0..count.unwrap_or(1) {
            match slot.apply(Delta::ListPop { left }).and_then(|o| o.popped) {
                Some(element) => out.push(element),
                None => break,
            }
        }
        Ok(Some(out))
    })?;
    ctx.wrote(lsn);
    let popped = popped?;
    match (count, popped) {
        (None, Some(mut elements)) if !elements.is_empty() => ctx.reply.bulk(&elements.remove(0)),
        (None, _) => ctx.reply.null(),
        (Some(_), None) => ctx.reply.null_array(),
        (Some(_), Some(elements)) => {
            ctx.reply.array(elements.len());
            for e in &elements {
                ctx.reply.bulk(e);
            }
        }
    }
    Ok(())
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    pop(ctx, args, true)
}
