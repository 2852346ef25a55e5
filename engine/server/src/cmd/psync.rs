//! PSYNC replid offset: a replica asks for the stream (the connection becomes a replication
//! link, `replication::primary`). SYNC is not offered: Basalt's replicas speak PSYNC.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::replication::{primary::PsyncRequest, Pending};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    if ctx.shared.repl.is_replica() {
        return Err(CmdError::msg("ERR this node is a replica: replicate from its primary"));
    }
    if crate::multi::in_transaction() {
        return Err(CmdError::msg("ERR PSYNC is not allowed here"));
    }
    let replid = String::from_utf8_lossy(args.get(1)).into_owned();
    let offset = super::arg_i64(args.get(2))?;
    ctx.session.repl_pending = Some(Pending::Psync(PsyncRequest { replid, offset }));
    Ok(())
}
