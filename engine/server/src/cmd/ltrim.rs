//! LTRIM key start stop: keeps only the elements in the range (Redis' index rules); a list
//! left empty is deleted.

use super::util::{existing_collection_mut, pick_list, resolve_range};
use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Kind, Value};

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (start, stop) = (arg_i64(args.get(2))?, arg_i64(args.get(3))?);
    let (done, lsn) = ctx.db().update(args.get(1), |slot| -> Result<(), CmdError> {
        let keep = match slot.get().map(|e| &e.value) {
            None => return Ok(()),
            Some(Value::List(l)) => resolve_range(start, stop, l.len()),
            Some(_) => return Err(CmdError::WrongType),
        };
        match keep {
            None => {
                slot.remove();
            }
            Some((a, b)) => {
                if let Some(list) = existing_collection_mut(slot, Kind::List, pick_list)? {
                    if a == 0 && b + 1 == list.len() {
                        return Ok(());
                    }
                    list.truncate(b + 1);
                    list.drain(..a);
                }
            }
        }
        Ok(())
    })?;
    ctx.wrote(lsn);
    done?;
    ctx.reply.ok();
    Ok(())
}
