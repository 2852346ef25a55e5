//! ZUNIONSTORE destination numkeys key [key ...] [WEIGHTS weight ...] [AGGREGATE SUM|MIN|MAX] (one log record; the destination is deleted when the result is empty).

use super::zsetops::{self, Op, Output};
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    zsetops::run(ctx, args, Op::Union, Output::Store, 2, "zunionstore")
}
