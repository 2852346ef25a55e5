//! SMEMBERS key: a set in RESP3, an array in RESP2.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let db = ctx.db();
    let reply = &mut *ctx.reply;
    db.read(args.get(1), |entry| {
        match entry.map(|e| &e.value) {
            None => reply.set(0),
            Some(Value::Set(s)) => {
                reply.set(s.len());
                for member in s.iter() {
                    reply.bulk(member);
                }
            }
            Some(_) => return Err(CmdError::WrongType),
        }
        Ok(())
    })?
}
