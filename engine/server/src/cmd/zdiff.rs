//! ZDIFF numkeys key [key ...] [WITHSCORES]: the members of the first set in none of the others.

use super::zsetops::{self, Op, Output};
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    zsetops::run(ctx, args, Op::Diff, Output::Reply, 1, "zdiff")
}
