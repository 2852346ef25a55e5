//! GETDEL key

use super::util::as_str;
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (old, lsn) = ctx.db().update(args.get(1), |slot| -> Result<Option<Bytes>, CmdError> {
        let old = match slot.get() {
            Some(e) => as_str(e)?.clone(),
            None => return Ok(None),
        };
        slot.remove();
        Ok(Some(old))
    })?;
    ctx.wrote(lsn);
    match old? {
        Some(b) => ctx.reply.bulk(&b),
        None => ctx.reply.null(),
    }
    Ok(())
}
