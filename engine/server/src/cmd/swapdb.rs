//! SWAPDB index1 index2: exchanges two databases (one log record); connections keep their
//! selected number and see the other data from then on, as in Redis.

use super::select::db_index;
use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    arg_i64(args.get(1)).map_err(|_| CmdError::msg("ERR invalid first DB index"))?;
    arg_i64(args.get(2)).map_err(|_| CmdError::msg("ERR invalid second DB index"))?;
    let a = db_index(ctx, args.get(1))?;
    let b = db_index(ctx, args.get(2))?;
    let lsn = ctx.shared.db.swap_db(a, b)?;
    ctx.wrote(lsn);
    ctx.reply.ok();
    Ok(())
}
