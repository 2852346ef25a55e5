//! CLIENT NO-EVICT ON|OFF: Basalt never evicts clients to free memory (its memory bound
//! moves values to disk), so every client is already safe; the flag is kept and shown.

use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let on = if is(args.get(2), "on") {
        true
    } else if is(args.get(2), "off") {
        false
    } else {
        return Err(CmdError::Syntax);
    };
    ctx.session.handle.update_meta(|m| m.no_evict = on);
    ctx.reply.ok();
    Ok(())
}
