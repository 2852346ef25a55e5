//! CLIENT REPLY ON|OFF|SKIP: OFF stops replies to this connection (this command's included),
//! SKIP drops the replies of this command and the next, ON brings them back (answering OK).

use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let mode = args.get(2);
    if is(mode, "on") {
        ctx.session.replies_off = false;
        ctx.session.replies_skipped = 0;
    } else if is(mode, "off") {
        ctx.session.replies_off = true;
    } else if is(mode, "skip") {
        if !ctx.session.replies_off {
            ctx.session.replies_skipped = 2;
        }
    } else {
        return Err(CmdError::Syntax);
    }
    ctx.reply.ok();
    Ok(())
}
