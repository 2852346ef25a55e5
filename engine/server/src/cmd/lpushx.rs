//! LPUSHX key element [element ...]: LPUSH only onto an existing list; the new length, 0 when
//! the key is missing.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    push_existing(ctx, args, true)
}

/// LPUSHX and RPUSHX.
pub fn push_existing(ctx: &mut Ctx<'_>, args: Args<'_>, left: bool) -> CmdResult {
    use super::util::{existing_collection_mut, pick_list};
    use crate::error::CmdError;
    use basalt_storage::Kind;
    use bytes::Bytes;
    let (len, lsn) = ctx.db().update(args.get(1), |slot| -> Result<usize, CmdError> {
        let Some(list) = existing_collection_mut(slot, Kind::List, pick_list)? else { return Ok(0) };
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
