//! SUNION key [key ...]: the members in any set.

use super::setops::{self, Op};
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let keys: Vec<&[u8]> = args.tail(1).iter().collect();
    setops::run(ctx, &keys, None, Op::Union)
}
