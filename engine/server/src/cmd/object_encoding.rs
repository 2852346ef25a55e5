//! OBJECT ENCODING key: the encoding Redis would use for the value (see `encoding.rs`).

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    match ctx.db().read(args.get(2), |entry| entry.map(|e| crate::encoding::encoding(&e.value)))? {
        Some(name) => ctx.reply.bulk(name.as_bytes()),
        None => ctx.reply.null(),
    }
    Ok(())
}
