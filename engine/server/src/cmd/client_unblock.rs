//! CLIENT UNBLOCK client-id [TIMEOUT|ERROR]: ends another connection's blocking command, as if
//! its timeout had passed (the default) or with an UNBLOCKED error; 1 if that connection was
//! blocked, else 0.

use super::{arg_i64, is, Ctx};
use crate::client::Unblock;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let id = arg_i64(args.get(2))?;
    let how = match args.len() {
        3 => Unblock::Timeout,
        4 if is(args.get(3), "timeout") => Unblock::Timeout,
        4 if is(args.get(3), "error") => Unblock::Error,
        4 => return Err(CmdError::msg("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR")),
        _ => return Err(CmdError::bad_subcommand("CLIENT", b"unblock")),
    };
    let done = ctx.shared.clients.all().iter().any(|c| c.id as i64 == id && c.request_unblock(how));
    ctx.reply.int(done as i64);
    Ok(())
}
