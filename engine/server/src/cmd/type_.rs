//! TYPE key: string, hash, list, set, zset or none (known without loading a cold value).

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let name = ctx.db().kind(args.get(1)).map_or("none", |k| k.name());
    ctx.reply.simple(name);
    Ok(())
}
