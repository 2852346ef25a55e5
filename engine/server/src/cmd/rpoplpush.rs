//! RPOPLPUSH source destination: LMOVE source destination RIGHT LEFT.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    match super::lmove::move_element(ctx, args.get(1), args.get(2), false, true)? {
        Some(element) => ctx.reply.bulk(&element),
        None => ctx.reply.null(),
    }
    Ok(())
}
