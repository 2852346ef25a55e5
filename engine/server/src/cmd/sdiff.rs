//! SDIFF key [key ...]: the members of the first set in none of the others.

use super::setops::{self, Op};
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let keys: Vec<&[u8]> = args.tail(1).iter().collect();
    setops::run(ctx, &keys, None, Op::Diff)
}
