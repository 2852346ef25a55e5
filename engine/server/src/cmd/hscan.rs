//! HSCAN key cursor [MATCH pattern] [COUNT count] [NOVALUES]
//!
//! Like Redis for small (listpack) hashes, the whole hash comes back in one page with cursor
//! 0: COUNT is a hint, and this keeps the guarantees of SCAN without a per-hash cursor.

use super::util::{parse_cursor, parse_scan_options};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::glob;
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    parse_cursor(args.get(2))?;
    let db = ctx.db();
    let reply = &mut *ctx.reply;
    db.read(args.get(1), |entry| {
        // As Redis: a missing key is an empty scan and the type is checked before the options.
        let hash = match entry.map(|e| &e.value) {
            None => {
                reply.array(2);
                reply.bulk(b"0");
                reply.array(0);
                return Ok(());
            }
            Some(Value::Hash(h)) => Some(h),
            Some(_) => return Err(CmdError::WrongType),
        };
        let opts = parse_scan_options(args.tail(3), false, true)?;
        let fields: Vec<_> = hash
            .into_iter()
            .flat_map(|h| h.iter())
            .filter(|(f, _)| opts.pattern.is_none_or(|p| glob::matches(p, f, false)))
            .collect();
        reply.array(2);
        reply.bulk(b"0");
        reply.array(if opts.novalues { fields.len() } else { fields.len() * 2 });
        for (field, value) in fields {
            reply.bulk(field);
            if !opts.novalues {
                reply.bulk(value);
            }
        }
        Ok(())
    })?
}
