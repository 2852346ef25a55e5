//! SELECT index: picks one of the `databases` logical databases for this connection.

use super::{arg_i64, Ctx};
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let index = db_index(ctx, args.get(1))?;
    ctx.session.db = index;
    ctx.session.handle.update_meta(|m| m.db = index);
    ctx.reply.ok();
    Ok(())
}

/// A database number argument (SELECT, MOVE, SWAPDB), worded as Redis refuses it.
pub fn db_index(ctx: &Ctx<'_>, arg: &[u8]) -> Result<usize, crate::error::CmdError> {
    let index = arg_i64(arg)?;
    if index < 0 || index as u64 >= ctx.shared.db.databases() as u64 {
        return Err(crate::error::CmdError::msg("ERR DB index is out of range"));
    }
    Ok(index as usize)
}
