//! SELECT index: Basalt has one database, 0 (as a Redis cluster node).

use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let index = arg_i64(args.get(1))?;
    if index != 0 {
        return Err(CmdError::msg("ERR DB index is out of range"));
    }
    ctx.reply.ok();
    Ok(())
}
