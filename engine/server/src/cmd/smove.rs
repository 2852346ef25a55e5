//! SMOVE source destination member: moves a member between sets in one log record; 1 if it
//! moved, 0 if `source` did not hold it. A destination already holding it does not change.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Entry, Value};
use bytes::Bytes;
use std::collections::HashSet;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (source, destination, member) = (args.get(1), args.get(2), args.get(3));
    let (moved, lsn) = ctx.db().batch(&[source, destination], |txn| -> Result<bool, CmdError> {
        let holds = match txn.get(source).map(|e| &e.value) {
            None => return Ok(false),
            Some(Value::Set(s)) => s.contains(member),
            Some(_) => return Err(CmdError::WrongType),
        };
        match txn.get(destination).map(|e| &e.value) {
            None | Some(Value::Set(_)) => {}
            Some(_) => return Err(CmdError::WrongType),
        }
        if source == destination || !holds {
            return Ok(holds);
        }
        if let Some(Value::Set(s)) = txn.get_mut(source).map(|e| &mut e.value) {
            s.remove(member);
        }
        // A destination that holds the member already is left alone (not touched for WATCH).
        if matches!(txn.get(destination).map(|e| &e.value), Some(Value::Set(s)) if s.contains(member)) {
            return Ok(true);
        }
        let member = Bytes::copy_from_slice(member);
        match txn.get_mut(destination).map(|e| &mut e.value) {
            Some(Value::Set(s)) => {
                s.insert(member);
            }
            _ => {
                txn.put(destination, Entry::new(Value::Set(Box::new(HashSet::from([member])))));
            }
        }
        Ok(true)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(moved? as i64);
    Ok(())
}
