//! ZINCRBY key increment member: ZADD key INCR increment member.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::{Args, OwnedArgs};

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let mut zadd = OwnedArgs::new();
    for arg in [&b"zadd"[..], args.get(1), b"incr", args.get(2), args.get(3)] {
        zadd.push(arg);
    }
    super::zadd::run(ctx, zadd.args())
}
