//! ZDIFFSTORE destination numkeys key [key ...] (one log record; the destination is deleted when the result is empty).

use super::zsetops::{self, Op, Output};
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    zsetops::run(ctx, args, Op::Diff, Output::Store, 2, "zdiffstore")
}
