//! ZINTER numkeys key [key ...] [WEIGHTS weight ...] [AGGREGATE SUM|MIN|MAX] [WITHSCORES].

use super::zsetops::{self, Op, Output};
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    zsetops::run(ctx, args, Op::Inter, Output::Reply, 1, "zinter")
}
