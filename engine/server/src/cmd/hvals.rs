//! HVALS key

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let db = ctx.db();
    let reply = &mut *ctx.reply;
    db.read(args.get(1), |entry| {
        match entry.map(|e| &e.value) {
            None => reply.array(0),
            Some(Value::Hash(h)) => {
                reply.array(h.len());
                for value in h.values() {
                    reply.bulk(value);
                }
            }
            Some(_) => return Err(CmdError::WrongType),
        }
        Ok(())
    })?
}
