//! DUMP key: the key's value as a payload RESTORE takes (Basalt's own format with a version and
//! a checksum, `basalt_storage::dump`), or nil if the key is missing.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    match ctx.db().read(args.get(1), |e| e.map(|e| basalt_storage::dump(&e.value)))? {
        Some(payload) => ctx.reply.bulk(&payload),
        None => ctx.reply.null(),
    }
    Ok(())
}
