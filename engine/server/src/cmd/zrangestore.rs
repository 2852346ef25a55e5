//! ZRANGESTORE dst src min max [BYSCORE | BYLEX] [REV] [LIMIT offset count]: stores the range
//! in `dst` (deleted when the range is empty), in one log record; replies with its size.

use super::zrange::generic;
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    generic(ctx, args, 2, Some(args.get(1)), None, None)
}
