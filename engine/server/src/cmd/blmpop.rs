//! BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count]: LMPOP that waits up to
//! `timeout` seconds (0: forever) for an element; a null array on timeout.

use super::bzpopmin::block_or_null;
use super::lmpop::{pop_first, write};
use super::Ctx;
use crate::blocking::parse_timeout;
use crate::error::CmdResult;
use crate::resp::Args;
use std::time::Instant;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let timeout = parse_timeout(args.get(1))?;
    let p = super::zmpop::parse(&args, 2, ["left", "right"])?;
    match pop_first(ctx, &p.keys, !p.max, p.count)? {
        Some(popped) => write(ctx, &popped),
        None => block_or_null(ctx, &p.keys, timeout.map(|t| Instant::now() + t)),
    }
    Ok(())
}
