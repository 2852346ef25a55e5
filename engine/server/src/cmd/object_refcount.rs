//! OBJECT REFCOUNT key: 1 for every value (Basalt shares no values between keys).

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    match ctx.db().kind(args.get(2)) {
        Some(_) => ctx.reply.int(1),
        None => ctx.reply.null(),
    }
    Ok(())
}
