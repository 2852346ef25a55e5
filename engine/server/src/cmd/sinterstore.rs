//! SINTERSTORE destination key [key ...]: stores the result (the destination is deleted when it is empty, one log record)
//! and replies with its size.

use super::setops::{self, Op};
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let keys: Vec<&[u8]> = args.tail(2).iter().collect();
    setops::run(ctx, &keys, Some(args.get(1)), Op::Inter)
}
