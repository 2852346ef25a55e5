//! GETSET key value: set, clear the TTL, reply with the old string.

use super::util::as_str;
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Entry, Value};
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (old, lsn) = ctx.db().update(args.get(1), |slot| -> Result<Option<Bytes>, CmdError> {
        let old = match slot.get() {
            Some(e) => Some(as_str(e)?.clone()),
            None => None,
        };
        slot.put(Entry::new(Value::Str(Bytes::copy_from_slice(args.get(2)))));
        Ok(old)
    })?;
    ctx.wrote(lsn);
    match old? {
        Some(b) => ctx.reply.bulk(&b),
        None => ctx.reply.null(),
    }
    Ok(())
}
