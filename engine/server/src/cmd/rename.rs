//! RENAME key newkey: moves the value and its expiry; one atomic log record.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (from, to) = (args.get(1), args.get(2));
    let (result, lsn) = ctx.db().batch(&[from, to], |txn| -> Result<(), CmdError> {
        if from == to {
            return txn.get(from).map(|_| ()).ok_or(CmdError::NoSuchKey);
        }
        let entry = txn.remove(from).ok_or(CmdError::NoSuchKey)?;
        txn.put(to, entry);
        Ok(())
    })?;
    ctx.wrote(lsn);
    result?;
    ctx.reply.ok();
    Ok(())
}
