//! EXEC: runs the queued commands alone (no other connection's command in between) and logs
//! all their changes as one record, so a crash keeps the whole transaction or none of it.
//! Fails with EXECABORT if a command was refused while queueing, and with a null reply if a
//! WATCHed key changed.

use super::Ctx;
use crate::dispatch;
use crate::error::{CmdError, CmdResult};
use crate::registry::registry;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    let Some(multi) = ctx.session.multi.take() else {
        return Err(CmdError::msg("ERR EXEC without MULTI"));
    };
    let dirty = ctx.session.watching.as_ref().is_some_and(|w| w.is_dirty(&ctx.shared.db));
    ctx.session.unwatch(&ctx.shared.db);
    if multi.aborted {
        return Err(CmdError::msg("EXECABORT Transaction discarded because of previous errors."));
    }
    if dirty {
        ctx.reply.null_array();
        return Ok(());
    }
    let shared = ctx.shared;
    let (_, lsn) = crate::multi::alone(shared, || {
        shared.db.atomically(|| {
            ctx.reply.array(multi.queued.len());
            for queued in &multi.queued {
                let args = queued.args();
                // Looked up and checked when queued; the table is static.
                let reg = registry();
                let Some(mut index) = reg.lookup(args.get(0)) else { continue };
                if !reg.entries[index].subcommands.is_empty() && args.len() >= 2 {
                    index = reg.lookup_sub(index, args.get(1)).unwrap_or(index);
                }
                dispatch::run(shared, ctx.session, ctx.reply, args, ctx.stats, index);
            }
        })
    })?;
    // The reply may show other clients' writes too: wait for everything appended so far.
    ctx.wrote(if lsn == 0 { shared.db.last_lsn() } else { lsn });
    Ok(())
}
