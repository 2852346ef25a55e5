//! SCRIPT EXISTS sha1 [sha1 ...]: 1 or 0 for each.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    ctx.reply.array(args.len() - 2);
    for sha in args.iter().skip(2) {
        ctx.reply.int(ctx.shared.scripts.get(sha).is_some() as i64);
    }
    Ok(())
}
