//! LMOVE source destination LEFT|RIGHT LEFT|RIGHT: pops from one end of `source` and pushes
//! to one end of `destination`, atomically (one log record); the element, or null.

use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Entry, Value};
use bytes::Bytes;
use std::collections::VecDeque;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let from_left = side(args.get(3))?;
    let to_left = side(args.get(4))?;
    match move_element(ctx, args.get(1), args.get(2), from_left, to_left)? {
        Some(element) => ctx.reply.bulk(&element),
        None => ctx.reply.null(),
    }
    Ok(())
}

/// LEFT (true) or RIGHT (false).
pub fn side(arg: &[u8]) -> Result<bool, CmdError> {
    if is(arg, "left") {
        Ok(true)
    } else if is(arg, "right") {
        Ok(false)
    } else {
        Err(CmdError::Syntax)
    }
}

/// The move itself (LMOVE, RPOPLPUSH, BLMOVE, BRPOPLPUSH); None when `source` is empty.
pub fn move_element(ctx: &mut Ctx<'_>, source: &[u8], destination: &[u8], from_left: bool, to_left: bool) -> Result<Option<Bytes>, CmdError> {
    let (moved, lsn) = ctx.db().batch(&[source, destination], |txn| -> Result<Option<Bytes>, CmdError> {
        for key in [source, destination] {
            match txn.get(key).map(|e| &e.value) {
                None | Some(Value::List(_)) => {}
                Some(_) => return Err(CmdError::WrongType),
            }
        }
        let element = match txn.get_mut(source).map(|e| &mut e.value) {
            Some(Value::List(list)) => if from_left { list.pop_front() } else { list.pop_back() },
            _ => None,
        };
        let Some(element) = element else { return Ok(None) };
        match txn.get_mut(destination).map(|e| &mut e.value) {
            Some(Value::List(list)) if to_left => list.push_front(element.clone()),
            Some(Value::List(list)) => list.push_back(element.clone()),
            _ => {
                txn.put(destination, Entry::new(Value::List(VecDeque::from([element.clone()]))));
            }
        }
        Ok(Some(element))
    })?;
    ctx.wrote(lsn);
    moved
}
