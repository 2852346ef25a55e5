//! DECRBY key decrement

use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let decrement = arg_i64(args.get(2))?;
    // Redis refuses to negate the smallest integer.
    let delta = decrement.checked_neg().ok_or_else(|| CmdError::msg("ERR decrement would overflow"))?;
    super::incrby::add(ctx, args.get(1), delta)
}
