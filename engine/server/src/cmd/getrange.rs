//! GETRANGE key start end

use super::util::as_str;
use super::{arg_i64, Ctx};
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let start = arg_i64(args.get(2))?;
    let end = arg_i64(args.get(3))?;
    let db = ctx.db();
    let reply = &mut *ctx.reply;
    db.read(args.get(1), |entry| {
        let s: &[u8] = match entry {
            Some(e) => as_str(e)?,
            None => b"",
        };
        // Redis' own arithmetic (not LRANGE's): both ends are clamped to 0 before comparing.
        if start < 0 && end < 0 && start > end {
            reply.bulk(b"");
            return Ok(());
        }
        let len = s.len() as i64;
        let mut a = if start < 0 { len + start } else { start };
        let mut b = if end < 0 { len + end } else { end };
        a = a.max(0);
        b = b.max(0);
        if b >= len {
            b = len - 1;
        }
        if len == 0 || a > b {
            reply.bulk(b"");
        } else {
            reply.bulk(&s[a as usize..=b as usize]);
        }
        Ok(())
    })?
}
