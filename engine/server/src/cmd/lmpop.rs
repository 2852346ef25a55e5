//! LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count]: pops up to `count` elements from the
//! first non-empty list; replies [key, [element, ...]] or a null array. Also BLMPOP's pop.

use super::util::{existing_collection_mut, pick_list};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Kind, Value};
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let p = super::zmpop::parse(&args, 1, ["left", "right"])?;
    match pop_first(ctx, &p.keys, !p.max, p.count)? {
        Some(popped) => write(ctx, &popped),
        None => ctx.reply.null_array(),
    }
    Ok(())
}

/// Pops up to `count` elements from the head (`left`) or tail of the first of `keys` that
/// holds a list (WRONGTYPE at the first key of another type); one log record.
pub fn pop_first(ctx: &mut Ctx<'_>, keys: &[&[u8]], left: bool, count: usize) -> Result<Option<(Bytes, Vec<Bytes>)>, CmdError> {
    for key in keys {
        let (popped, lsn) = ctx.db().update(key, |slot| -> Result<Option<Vec<Bytes>>, CmdError> {
            match slot.get().map(|e| &e.value) {
                None => return Ok(None),
                Some(Value::List(_)) => {}
                Some(_) => return Err(CmdError::WrongType),
            }
            let Some(list) = existing_collection_mut(slot, Kind::List, pick_list)? else { return Ok(None) };
            let n = count.min(list.len());
            Ok(Some(if left { list.drain(..n).collect() } else { list.drain(list.len() - n..).rev().collect() }))
        })?;
        ctx.wrote(lsn);
        if let Some(elements) = popped? {
            return Ok(Some((Bytes::copy_from_slice(key), elements)));
        }
    }
    Ok(None)
}

/// [key, [element, ...]].
pub fn write(ctx: &mut Ctx<'_>, (key, elements): &(Bytes, Vec<Bytes>)) {
    ctx.reply.array(2);
    ctx.reply.bulk(key);
    ctx.reply.array(elements.len());
    for e in elements {
        ctx.reply.bulk(e);
    }
}
