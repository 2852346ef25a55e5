//! HGETALL key: a map in RESP3, a flat field/value array in RESP2. HKEYS and HVALS reply with
//! one half of the same walk (`reply_part`).

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

/// Which part of each field/value pair a reply carries.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Both,
    Fields,
    Values,
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    reply_part(ctx, args, Part::Both)
}

/// The hash at `args[1]`, whole or one half: an empty reply for a missing key.
pub fn reply_part(ctx: &mut Ctx<'_>, args: Args<'_>, part: Part) -> CmdResult {
    let db = ctx.db();
    let reply = &mut *ctx.reply;
    db.read(args.get(1), |entry| {
        let hash = match entry.map(|e| &e.value) {
            None => None,
            Some(Value::Hash(h)) => Some(h),
            Some(_) => return Err(CmdError::WrongType),
        };
        let len = hash.map_or(0, |h| h.len());
        if part == Part::Both {
            reply.map(len);
        } else {
            reply.array(len);
        }
        for (field, value) in hash.into_iter().flat_map(|h| h.iter()) {
            if part != Part::Values {
                reply.bulk(field);
            }
            if part != Part::Fields {
                reply.bulk(value);
            }
        }
        Ok(())
    })?
}
