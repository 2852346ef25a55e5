//! CLIENT SETNAME name (an empty name removes it)

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

/// Redis refuses names with spaces, newlines or other bytes outside `!`..`~`.
pub fn valid_name(name: &[u8]) -> bool {
    name.iter().all(|&b| (b'!'..=b'~').contains(&b))
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let name = args.get(2);
    if !valid_name(name) {
        return Err(CmdError::msg("ERR Client names cannot contain spaces, newlines or special characters."));
    }
    let name = if name.is_empty() { None } else { Some(String::from_utf8_lossy(name).into_owned()) };
    ctx.session.handle.update_meta(|m| m.name = name);
    ctx.reply.ok();
    Ok(())
}
