//! SHUTDOWN [NOSAVE|SAVE] [NOW] [FORCE] [ABORT]: flush the log, stop the server. As in Redis
//! there is no reply on success: the connection closes.

use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    for arg in args.tail(1).iter() {
        if is(arg, "abort") {
            return Err(CmdError::msg("ERR No shutdown in progress."));
        }
        if !(is(arg, "nosave") || is(arg, "save") || is(arg, "now") || is(arg, "force")) {
            return Err(CmdError::Syntax);
        }
    }
    if let Err(e) = ctx.shared.db.sync() {
        if !args.tail(1).iter().any(|a| is(a, "force")) {
            return Err(CmdError::msg(format!("ERR Errors trying to SHUTDOWN. Check logs. ({e})")));
        }
    }
    eprintln!("basalt-server: shutdown requested by client {}", ctx.session.id());
    ctx.shared.request_shutdown();
    ctx.session.close_after_reply = true;
    Ok(())
}
