//! STRLEN key

use super::util::as_str;
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let len = ctx.db().read(args.get(1), |entry| match entry {
        Some(e) => as_str(e).map(|b| b.len()),
        None => Ok(0),
    })??;
    ctx.reply.int(len as i64);
    Ok(())
}
