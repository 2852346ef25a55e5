//! BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count]: ZMPOP that waits up to
//! `timeout` seconds (0: forever) for a member; a null array on timeout.

use super::bzpopmin::block_or_null;
use super::zpopmin::{pop_first, write_members};
use super::Ctx;
use crate::blocking::parse_timeout;
use crate::error::CmdResult;
use crate::resp::Args;
use std::time::Instant;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let timeout = parse_timeout(args.get(1))?;
    let p = super::zmpop::parse(&args, 2, ["min", "max"])?;
    match pop_first(ctx, &p.keys, p.max, p.count)? {
        Some((key, members)) => {
            ctx.reply.array(2);
            ctx.reply.bulk(&key);
            write_members(ctx.reply, &members, true);
        }
        None => block_or_null(ctx, &p.keys, timeout.map(|t| Instant::now() + t)),
    }
    Ok(())
}
