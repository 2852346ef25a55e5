//! EVAL script numkeys [key ...] [arg ...]: runs a Lua script (cached by its SHA1) alone and
//! as one log record.

use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use crate::scripting::vm::Target;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    eval(ctx, args, false)
}

/// EVAL and EVAL_RO.
pub fn eval(ctx: &mut Ctx<'_>, args: Args<'_>, read_only: bool) -> CmdResult {
    let (keys, argv) = keys_and_args(&args)?;
    let body = args.get(1);
    let sha = ctx.shared.scripts.add(body);
    let text = String::from_utf8_lossy(body).into_owned();
    crate::scripting::vm::run(ctx, Target::Script { sha: &sha, body: &text }, keys, argv, read_only)
}

/// A script's keys and its other arguments.
pub type KeysAndArgs<'a> = (Vec<&'a [u8]>, Vec<&'a [u8]>);

/// `numkeys key... arg...` from the third argument on (EVAL, EVALSHA, FCALL).
pub fn keys_and_args<'a>(args: &Args<'a>) -> Result<KeysAndArgs<'a>, CmdError> {
    let numkeys = arg_i64(args.get(2))?;
    if numkeys < 0 {
        return Err(CmdError::msg("ERR Number of keys can't be negative"));
    }
    if numkeys as u64 > (args.len() - 3) as u64 {
        return Err(CmdError::msg("ERR Number of keys can't be greater than number of args"));
    }
    let split = 3 + numkeys as usize;
    Ok((args.iter().skip(3).take(numkeys as usize).collect(), args.iter().skip(split).collect()))
}
