//! GET key

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let db = ctx.db();
    let reply = &mut *ctx.reply;
    db.read(args.get(1), |entry| match entry {
        None => {
            reply.null();
            Ok(())
        }
        Some(e) => match &e.value {
            Value::Str(b) => {
                reply.bulk(b);
                Ok(())
            }
            _ => Err(CmdError::WrongType),
        },
    })?
}
