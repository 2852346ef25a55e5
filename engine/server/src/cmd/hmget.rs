//! HMGET key field [field ...]

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let db = ctx.db();
    let reply = &mut *ctx.reply;
    db.read(args.get(1), |entry| {
        let hash = match entry.map(|e| &e.value) {
            None => None,
            Some(Value::Hash(h)) => Some(h),
            Some(_) => return Err(CmdError::WrongType),
        };
        reply.array(args.len() - 2);
        for field in args.tail(2).iter() {
            match hash.and_then(|h| h.get(field)) {
                Some(v) => reply.bulk(v),
                None => reply.null(),
            }
        }
        Ok(())
    })?
}
