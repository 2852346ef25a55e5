//! ZREVRANGEBYSCORE key max min [WITHSCORES] [LIMIT offset count]

use super::zrange::{generic, Kind};
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    generic(ctx, args, 1, None, Some(Kind::Score), Some(true))
}
