//! LRANGE key start stop

use super::util::resolve_range;
use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let start = arg_i64(args.get(2))?;
    let stop = arg_i64(args.get(3))?;
    let db = ctx.db();
    let reply = &mut *ctx.reply;
    db.read(args.get(1), |entry| {
        let list = match entry.map(|e| &e.value) {
            None => {
                reply.array(0);
                return Ok(());
            }
            Some(Value::List(l)) => l,
            Some(_) => return Err(CmdError::WrongType),
        };
        match resolve_range(start, stop, list.len()) {
            None => reply.array(0),
            Some((a, b)) => {
                reply.array(b - a + 1);
                for element in list.range(a..=b) {
                    reply.bulk(element);
                }
            }
        }
        Ok(())
    })?
}
