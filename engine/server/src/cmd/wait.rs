//! WAIT numreplicas timeout: blocks until that many replicas acknowledged every write made
//! so far (timeout in ms, 0 = no limit), then answers how many did. The connection does the
//! waiting (`conn.rs`), after the replies before it are sent.

use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::replication::Pending;
use crate::resp::Args;
use std::time::Duration;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let replicas = arg_i64(args.get(1))?;
    let timeout = arg_i64(args.get(2)).map_err(|_| CmdError::msg("ERR timeout is not an integer or out of range"))?;
    if timeout < 0 {
        return Err(CmdError::msg("ERR timeout is negative"));
    }
    let repl = &ctx.shared.repl;
    if repl.is_replica() {
        return Err(CmdError::msg("ERR WAIT cannot be used with replica instances."));
    }
    if crate::multi::in_transaction() {
        // Inside MULTI or a script nothing may block: answer with what is there now.
        ctx.reply.int(repl.acked_now(repl.offset()) as i64);
        return Ok(());
    }
    let timeout = (timeout > 0).then(|| Duration::from_millis(timeout as u64));
    ctx.session.repl_pending = Some(Pending::Wait { target: repl.offset(), replicas: replicas.max(0) as usize, timeout });
    Ok(())
}
