//! SLOWLOG GET [count]: the newest entries of the slow log (10 by default, all for -1), each
//! as Redis answers it: id, unix time, microseconds, arguments, client address, client name.

use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let count = match args.len() {
        2 => Some(10),
        _ => match arg_i64(args.get(2)) {
            Ok(-1) => None,
            Ok(n) if n >= 0 => Some(n as usize),
            _ => return Err(CmdError::msg("ERR count should be greater than or equal to -1")),
        },
    };
    let reply = &mut *ctx.reply;
    ctx.shared.slowlog.with_newest(count, |entries| {
        let entries: Vec<_> = entries.collect();
        reply.array(entries.len());
        for entry in entries {
            reply.array(6);
            reply.int(entry.id as i64);
            reply.int(entry.unix_secs);
            reply.int(entry.usec as i64);
            reply.array(entry.args.len());
            for arg in &entry.args {
                reply.bulk(arg);
            }
            reply.bulk(entry.peer.as_bytes());
            reply.bulk(entry.name.as_bytes());
        }
    });
    Ok(())
}
