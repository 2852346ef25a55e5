//! LPUSH key element [element ...]: replies with the new length.

use super::util::{collection_mut, new_list, pick_list};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use bytes::Bytes;

/// Pushes `args[2..]` at the head (`left`) or tail; shared with RPUSH.
pub fn push(ctx: &mut Ctx<'_>, args: Args<'_>, left: bool) -> CmdResult {
    let (len, lsn) = ctx.db().update(args.get(1), |slot| -> Result<usize, CmdError> {
        let list = collection_mut(slot, new_list, pick_list)?;
        for element in args.tail(2).iter() {
            let element = Bytes::copy_from_slice(element);
            if left {
                list.push_front(element);
            } else {
                list.push_back(element);
            }
        }
        Ok(list.len())
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(len? as i64);
    Ok(())
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    push(ctx, args, true)
}
