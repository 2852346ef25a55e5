//! MGET key [key ...]: null for missing keys and keys of other types.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    ctx.reply.array(args.len() - 1);
    for key in args.tail(1).iter() {
        let db = ctx.db();
        let reply = &mut *ctx.reply;
        db.read(key, |entry| match entry.map(|e| &e.value) {
            Some(Value::Str(b)) => reply.bulk(b),
            _ => reply.null(),
        })?;
    }
    Ok(())
}
