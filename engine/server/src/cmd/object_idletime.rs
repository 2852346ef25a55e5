//! OBJECT IDLETIME key: seconds since the key was last read or written (64 ms clock).

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    match ctx.db().idle_secs(args.get(2)) {
        Some(secs) => ctx.reply.int(secs as i64),
        None => ctx.reply.null(),
    }
    Ok(())
}
