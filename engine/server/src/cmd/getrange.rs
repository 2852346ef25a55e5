//! GETRANGE key start end

use super::util::as_str;
use super::{arg_i64, Ctx};
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let start = arg_i64(args.get(2))?;
    let end = arg_i64(args.get(3))?;
    let reply = &mut *ctx.reply;
    ctx.shared.db.read(args.get(1), |entry| {
        let s: &[u8] = match entry {
            Some(e) => as_str(e)?,
            None => b"",
        };
        // Redis: a negative start past the beginning is 0; start > end (both negative) is empty.
        if start < 0 && end < 0 && start > end {
            reply.bulk(b"");
            return Ok(());
        }
        match super::util::resolve_range(start, end, s.len()) {
            Some((a, b)) => reply.bulk(&s[a..=b]),
            None => reply.bulk(b""),
        }
        Ok(())
    })?
}
