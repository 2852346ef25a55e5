//! HGET key field

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let db = ctx.db();
    let reply = &mut *ctx.reply;
    db.read(args.get(1), |entry| {
        match entry.map(|e| &e.value) {
            None => reply.null(),
            Some(Value::Hash(h)) => match h.get(args.get(2)) {
                Some(v) => reply.bulk(v),
                None => reply.null(),
            },
            Some(_) => return Err(CmdError::WrongType),
        }
        Ok(())
    })?
}
