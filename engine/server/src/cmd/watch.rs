//! WATCH key [key ...]: EXEC will fail if any of these keys changes (or expires) before it.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::multi::Watching;
use crate::resp::Args;
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    if ctx.session.multi.is_some() {
        return Err(CmdError::msg("ERR WATCH inside MULTI is not allowed"));
    }
    let db = ctx.session.db;
    let keyspace = ctx.db();
    let watching = ctx.session.watching.get_or_insert_with(Watching::new);
    for key in args.iter().skip(1) {
        if watching.keys.iter().any(|(d, k, _)| *d == db && k == key) {
            continue;
        }
        // A key already expired when watched does not fail EXEC by expiring (Redis 7).
        let live = keyspace.kind(key).is_some();
        ctx.shared.db.watch(db, key, &watching.flag);
        watching.keys.push((db, Bytes::copy_from_slice(key), live));
    }
    ctx.reply.ok();
    Ok(())
}
