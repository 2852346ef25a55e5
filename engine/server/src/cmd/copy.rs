//! COPY source destination [DB destination-db] [REPLACE]: copies a key's value and expiry,
//! into this or another database; 1 if copied, 0 if the source is missing or the destination
//! exists (without REPLACE). Only the destination changes, so it is one log record.

use super::select::db_index;
use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (source, destination) = (args.get(1), args.get(2));
    let from = ctx.session.db;
    let (mut to, mut replace) = (from, false);
    let mut j = 3;
    while j < args.len() {
        if is(args.get(j), "replace") {
            replace = true;
        } else if is(args.get(j), "db") && j + 1 < args.len() {
            to = db_index(ctx, args.get(j + 1))?;
            j += 1;
        } else {
            return Err(CmdError::Syntax);
        }
        j += 1;
    }
    if from == to && source == destination {
        return Err(CmdError::msg("ERR source and destination objects are the same"));
    }
    let (copied, lsn) = if from == to {
        ctx.db().batch(&[source, destination], |txn| {
            let Some(entry) = txn.get(source).cloned() else { return false };
            if txn.get(destination).is_some() && !replace {
                return false;
            }
            txn.put(destination, entry);
            true
        })?
    } else {
        let Some(entry) = ctx.db().read(source, |e| e.cloned())? else {
            ctx.reply.int(0);
            return Ok(());
        };
        ctx.shared.db.keyspace(to).update(destination, |slot| {
            if slot.get().is_some() && !replace {
                return false;
            }
            slot.put(entry);
            true
        })?
    };
    ctx.wrote(lsn);
    ctx.reply.int(copied as i64);
    Ok(())
}
