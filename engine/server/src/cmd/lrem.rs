//! LREM key count element: removes up to |count| occurrences (from the head when count > 0,
//! the tail when < 0, all when 0); replies with how many.

use super::util::{existing_collection_mut, pick_list};
use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Kind, Value};

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let count = arg_i64(args.get(2))?;
    let element = args.get(3);
    let (removed, lsn) = ctx.db().update(args.get(1), |slot| -> Result<usize, CmdError> {
        let len = match slot.get().map(|e| &e.value) {
            None => return Ok(0),
            Some(Value::List(l)) if !l.iter().any(|e| e.as_ref() == element) => return Ok(0),
            Some(Value::List(l)) => l.len(),
            Some(_) => return Err(CmdError::WrongType),
        };
        let Some(list) = existing_collection_mut(slot, Kind::List, pick_list)? else { return Ok(0) };
        let limit = if count == 0 { len } else { count.unsigned_abs().min(len as u64) as usize };
        let mut removed = 0;
        if count >= 0 {
            let mut i = 0;
            while i < list.len() && removed < limit {
                if list[i].as_ref() == element {
                    list.remove(i);
                    removed += 1;
                } else {
                    i += 1;
                }
            }
        } else {
            let mut i = list.len();
            while i > 0 && removed < limit {
                i -= 1;
                if list[i].as_ref() == element {
                    list.remove(i);
                    removed += 1;
                }
            }
        }
        Ok(removed)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(removed? as i64);
    Ok(())
}
