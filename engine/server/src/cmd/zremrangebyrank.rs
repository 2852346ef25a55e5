//! ZREMRANGEBYRANK key start stop: removes the members at those positions (Redis' index
//! rules: negative from the end); replies with how many.

use super::zrangebyscore::Range;
use super::zremrangebyscore::remove_range;
use super::{arg_i64, Ctx};
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let range = Range::Index(arg_i64(args.get(2))?, arg_i64(args.get(3))?);
    remove_range(ctx, args.get(1), range)
}
