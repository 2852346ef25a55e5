//! DEL key [key ...]: replies with the number of keys removed (one log record for all).

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

/// Shared with UNLINK.
pub fn remove_keys(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (removed, lsn) = if args.len() == 2 {
        ctx.db().update(args.get(1), |slot| slot.remove().is_some() as i64)?
    } else {
        let keys: Vec<&[u8]> = args.tail(1).iter().collect();
        ctx.db().batch(&keys, |txn| {
            let distinct: Vec<_> = txn.keys().to_vec();
            distinct.iter().filter(|k| txn.remove(k).is_some()).count() as i64
        })?
    };
    ctx.wrote(lsn);
    ctx.reply.int(removed);
    Ok(())
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    remove_keys(ctx, args)
}
