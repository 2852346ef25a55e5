//! LINDEX key index: the element at `index` (negative counts from the tail), or null.

use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let index = arg_i64(args.get(2))?;
    let element = ctx.db().read(args.get(1), |entry| match entry.map(|e| &e.value) {
        None => Ok(None),
        Some(Value::List(l)) => Ok(list_position(index, l.len()).map(|i| l[i].clone())),
        Some(_) => Err(CmdError::WrongType),
    })??;
    match element {
        Some(e) => ctx.reply.bulk(&e),
        None => ctx.reply.null(),
    }
    Ok(())
}

/// A Redis list index (negative from the tail) as a position, if inside a list of `len`.
pub fn list_position(index: i64, len: usize) -> Option<usize> {
    let i = if index < 0 { len as i64 + index } else { index };
    (0..len as i64).contains(&i).then_some(i as usize)
}
