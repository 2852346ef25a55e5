//! BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout: LMOVE, waiting up to `timeout`
//! seconds (0: forever) for `source` to have an element; the element, or null.

use super::lmove::{move_element, side};
use super::Ctx;
use crate::blocking::{parse_timeout, BlockRequest};
use crate::error::CmdResult;
use crate::resp::Args;
use bytes::Bytes;
use std::time::Instant;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let from_left = side(args.get(3))?;
    let to_left = side(args.get(4))?;
    blocking_move(ctx, args.get(1), args.get(2), from_left, to_left, args.get(5))
}

/// BLMOVE and BRPOPLPUSH.
pub fn blocking_move(ctx: &mut Ctx<'_>, source: &[u8], destination: &[u8], from_left: bool, to_left: bool, timeout: &[u8]) -> CmdResult {
    let timeout = parse_timeout(timeout)?;
    if let Some(element) = move_element(ctx, source, destination, from_left, to_left)? {
        ctx.reply.bulk(&element);
        return Ok(());
    }
    if ctx.can_block() {
        let keys = vec![(ctx.session.db, Bytes::copy_from_slice(source))];
        ctx.block = Some(BlockRequest { keys, deadline: timeout.map(|t| Instant::now() + t) });
        return Ok(());
    }
    ctx.reply.null();
    Ok(())
}
