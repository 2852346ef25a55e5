//! FCALL function numkeys [key ...] [arg ...]: runs a library function, called with the keys
//! and arguments as its two tables, alone and as one log record.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;
use crate::scripting::vm::{run as run_target, Target};

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    fcall(ctx, args, false)
}

/// FCALL and FCALL_RO.
pub fn fcall(ctx: &mut Ctx<'_>, args: Args<'_>, read_only: bool) -> CmdResult {
    let (keys, argv) = super::eval::keys_and_args(&args)?;
    let name = String::from_utf8_lossy(args.get(1)).into_owned();
    run_target(ctx, Target::Function { name: &name }, keys, argv, read_only)
}
