//! BZPOPMIN key [key ...] timeout: pops the lowest-scored member of the first non-empty sorted
//! set, waiting up to `timeout` seconds (0: forever); replies [key, member, score] or a null
//! array. Also BZPOPMAX's body.

use super::zpopmin::pop_first;
use super::Ctx;
use crate::blocking::{parse_timeout, BlockRequest};
use crate::error::CmdResult;
use crate::resp::Args;
use bytes::Bytes;
use std::time::Instant;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    blocking_pop(ctx, args, false)
}

pub fn blocking_pop(ctx: &mut Ctx<'_>, args: Args<'_>, max: bool) -> CmdResult {
    let timeout = parse_timeout(args.get(args.len() - 1))?;
    let keys: Vec<&[u8]> = args.iter().skip(1).take(args.len() - 2).collect();
    if let Some((key, members)) = pop_first(ctx, &keys, max, 1)? {
        ctx.reply.array(1 + 2 * members.len());
        ctx.reply.bulk(&key);
        for (member, score) in &members {
            ctx.reply.bulk(member);
            ctx.reply.double(*score);
        }
        return Ok(());
    }
    block_or_null(ctx, &keys, timeout.map(|t| Instant::now() + t));
    Ok(())
}

/// Nothing to pop: block on `keys` until `deadline` if the command may block, else the null
/// array a timed-out blocking pop answers.
pub fn block_or_null(ctx: &mut Ctx<'_>, keys: &[&[u8]], deadline: Option<Instant>) {
    if ctx.can_block() {
        let db = ctx.session.db;
        let keys = keys.iter().map(|k| (db, Bytes::copy_from_slice(k))).collect();
        ctx.block = Some(BlockRequest { keys, deadline });
    } else {
        ctx.reply.null_array();
    }
}
