//! MSETNX key value [key value ...]: sets all keys only if none exists.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Entry, Value};
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    if args.len().is_multiple_of(2) {
        return Err(CmdError::WrongArgs("msetnx"));
    }
    let keys: Vec<&[u8]> = args.tail(1).iter().step_by(2).collect();
    let (set, lsn) = ctx.db().batch(&keys, |txn| {
        if keys.iter().any(|k| txn.get(k).is_some()) {
            return false;
        }
        for (pair, key) in keys.iter().enumerate() {
            let value = Bytes::copy_from_slice(args.get(2 + 2 * pair));
            txn.put(key, Entry::new(Value::Str(value)));
        }
        true
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(set as i64);
    Ok(())
}
