//! MOVE key db: moves a key to another database if it is not there already (one log record).

use super::select::db_index;
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let key = args.get(1);
    let to = db_index(ctx, args.get(2))?;
    let from = ctx.session.db;
    if from == to {
        return Err(CmdError::msg("ERR source and destination objects are the same"));
    }
    let (moved, lsn) = ctx.shared.db.move_key(key, from, to)?;
    ctx.wrote(lsn);
    ctx.reply.int(moved as i64);
    Ok(())
}
