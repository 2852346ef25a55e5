//! SETNX key value

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;
use basalt_storage::{Entry, Value};
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (set, lsn) = ctx.db().update(args.get(1), |slot| {
        if slot.get().is_some() {
            return false;
        }
        slot.put(Entry::new(Value::Str(Bytes::copy_from_slice(args.get(2)))));
        true
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(set as i64);
    Ok(())
}
