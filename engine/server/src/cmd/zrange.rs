//! ZRANGE key start stop [BYSCORE | BYLEX] [REV] [LIMIT offset count] [WITHSCORES]

use super::zrangebyscore::{parse_lex_bound, parse_limit, parse_score_bound, reply_range, Query, Range};
use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (mut by_score, mut by_lex, mut reverse, mut with_scores) = (false, false, false, false);
    let mut limit = None;
    let mut i = 4;
    while i < args.len() {
        let opt = args.get(i);
        if is(opt, "byscore") {
            by_score = true;
        } else if is(opt, "bylex") {
            by_lex = true;
        } else if is(opt, "rev") {
            reverse = true;
        } else if is(opt, "withscores") {
            with_scores = true;
        } else if is(opt, "limit") {
            limit = Some(parse_limit(&args, i)?);
            i += 2;
        } else {
            return Err(CmdError::Syntax);
        }
        i += 1;
    }
    if by_score && by_lex {
        return Err(CmdError::Syntax);
    }
    if limit.is_some() && !by_score && !by_lex {
        return Err(CmdError::msg(
            "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX",
        ));
    }
    if with_scores && by_lex {
        return Err(CmdError::msg("ERR syntax error, WITHSCORES not supported in combination with BYLEX"));
    }
    // With REV the first bound is the maximum for BYSCORE and BYLEX.
    let (lo, hi) = if reverse && (by_score || by_lex) { (args.get(3), args.get(2)) } else { (args.get(2), args.get(3)) };
    let range = if by_score {
        Range::Score(parse_score_bound(lo)?, parse_score_bound(hi)?)
    } else if by_lex {
        Range::Lex(parse_lex_bound(lo)?, parse_lex_bound(hi)?)
    } else {
        Range::Index(arg_i64(args.get(2))?, arg_i64(args.get(3))?)
    };
    let q = Query { range, reverse, limit, with_scores };
    reply_range(ctx, args.get(1), &q)
}
