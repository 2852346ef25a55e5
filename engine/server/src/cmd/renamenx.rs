//! RENAMENX key newkey: RENAME only when `newkey` does not exist; 1 if renamed, else 0.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (from, to) = (args.get(1), args.get(2));
    let (renamed, lsn) = ctx.db().batch(&[from, to], |txn| -> Result<bool, CmdError> {
        txn.get(from).ok_or(CmdError::NoSuchKey)?;
        if txn.get(to).is_some() {
            return Ok(false);
        }
        let entry = txn.remove(from).ok_or(CmdError::NoSuchKey)?;
        txn.put(to, entry);
        Ok(true)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(renamed? as i64);
    Ok(())
}
