//! BRPOPLPUSH source destination timeout: BLMOVE source destination RIGHT LEFT timeout.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::blmove::blocking_move(ctx, args.get(1), args.get(2), false, true, args.get(3))
}
