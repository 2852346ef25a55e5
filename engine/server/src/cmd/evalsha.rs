//! EVALSHA sha1 numkeys [key ...] [arg ...]: EVAL of a cached script.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    evalsha(ctx, args, false)
}

/// EVALSHA and EVALSHA_RO.
pub fn evalsha(ctx: &mut Ctx<'_>, args: Args<'_>, read_only: bool) -> CmdResult {
    let (keys, argv) = super::eval::keys_and_args(&args)?;
    let Some(body) = ctx.shared.scripts.get(args.get(1)) else {
        return Err(CmdError::msg("NOSCRIPT No matching script. Please use EVAL."));
    };
    let sha = String::from_utf8_lossy(args.get(1)).to_ascii_lowercase();
    let target = crate::scripting::vm::Target::Script { sha: &sha, body: &body };
    crate::scripting::vm::run(ctx, target, keys, argv, read_only)
}
