//! BLPOP key [key ...] timeout: pops the head of the first non-empty list, waiting up to
//! `timeout` seconds (0: forever) for one; replies [key, element] or a null array.

use super::Ctx;
use crate::blocking::{parse_timeout, BlockRequest};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Delta, Value};
use bytes::Bytes;
use std::time::Instant;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    blocking_pop(ctx, args, true)
}

/// BLPOP and BRPOP.
pub fn blocking_pop(ctx: &mut Ctx<'_>, args: Args<'_>, left: bool) -> CmdResult {
    let timeout = parse_timeout(args.get(args.len() - 1))?;
    let keys: Vec<&[u8]> = args.iter().skip(1).take(args.len() - 2).collect();
    for key in &keys {
        if let Some(element) = pop_one(ctx, key, left)? {
            ctx.reply.array(2);
            ctx.reply.bulk(key);
            ctx.reply.bulk(&element);
            return Ok(());
        }
    }
    if ctx.can_block() {
        let db = ctx.session.db;
        let keys = keys.iter().map(|k| (db, Bytes::copy_from_slice(k))).collect();
        ctx.block = Some(BlockRequest { keys, deadline: timeout.map(|t| Instant::now() + t) });
        return Ok(());
    }
    ctx.reply.null_array();
    Ok(())
}

/// Pops one element from the head (`left`) or tail of `key`; None if it holds no list.
pub fn pop_one(ctx: &mut Ctx<'_>, key: &[u8], left: bool) -> Result<Option<Bytes>, CmdError> {
    let (popped, lsn) = ctx.db().update(key, |slot| -> Result<Option<Bytes>, CmdError> {
        match slot.get().map(|e| &e.value) {
            None => return Ok(None),
            Some(Value::List(_)) => {}
            Some(_) => return Err(CmdError::WrongType),
        }
        Ok(slot.apply(Delta::ListPop { left }).and_then(|o| o.popped))
    })?;
    ctx.wrote(lsn);
    popped
}
