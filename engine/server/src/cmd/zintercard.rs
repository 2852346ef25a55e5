//! ZINTERCARD numkeys key [key ...] [LIMIT limit]: the size of the intersection.

use super::zsetops::{self, Op, Output};
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    zsetops::run(ctx, args, Op::Inter, Output::Cardinality, 1, "zintercard")
}
