//! OBJECT ENCODING key: the encoding Redis would use for the value (see `encoding.rs`).

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let thresholds = ctx.shared.config.read().unwrap_or_else(|e| e.into_inner()).encodings.clone();
    match ctx.db().read(args.get(2), |entry| entry.map(|e| crate::encoding::encoding(&e.value, &thresholds)))? {
        Some(name) => ctx.reply.bulk(name.as_bytes()),
        None => ctx.reply.null(),
    }
    Ok(())
}
