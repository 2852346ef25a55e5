//! SCARD key

use super::util::reply_len;
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    reply_len(ctx, args.get(1), |value| match value {
        Value::Set(s) => Some(s.len()),
        _ => None,
    })
}
