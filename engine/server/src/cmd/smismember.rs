//! SMISMEMBER key member [member ...]: 1 or 0 for each member.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let found: Vec<bool> = ctx.db().read(args.get(1), |entry| match entry.map(|e| &e.value) {
        None => Ok(vec![false; args.len() - 2]),
        Some(Value::Set(s)) => Ok(args.iter().skip(2).map(|m| s.contains(m)).collect()),
        Some(_) => Err(CmdError::WrongType),
    })??;
    ctx.reply.array(found.len());
    for f in found {
        ctx.reply.int(f as i64);
    }
    Ok(())
}
