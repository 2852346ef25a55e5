//! ZREMRANGEBYLEX key min max: removes the members in the lexicographical range; replies
//! with how many.

use super::zrangebyscore::{parse_lex_bound, Range};
use super::zremrangebyscore::remove_range;
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let range = Range::Lex(parse_lex_bound(args.get(2))?, parse_lex_bound(args.get(3))?);
    remove_range(ctx, args.get(1), range)
}
