//! AUTH [username] password

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (user, password) = match args.len() {
        2 => (None, args.get(1)),
        3 => (Some(args.get(1)), args.get(2)),
        _ => return Err(CmdError::Syntax),
    };
    let name = ctx.shared.auth.authenticate(user, password).map_err(CmdError::Other)?;
    ctx.session.handle.update_meta(|m| m.user = name.clone());
    ctx.session.user = Some(name);
    ctx.reply.ok();
    Ok(())
}
