//! ZMPOP numkeys key [key ...] MIN|MAX [COUNT count]: pops up to `count` members from the
//! first non-empty sorted set; replies [key, [[member, score], ...]] or a null array. Also the
//! argument parsing BZMPOP shares.

use super::zpopmin::{pop_first, write_members};
use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

/// The parsed arguments of [B]ZMPOP and [B]LMPOP: keys, which end, how many.
pub struct MPop<'a> {
    pub keys: Vec<&'a [u8]>,
    /// MIN/LEFT (false) or MAX/RIGHT (true).
    pub max: bool,
    pub count: usize,
}

/// Parses `numkeys key... END [COUNT n]` from `args[at]`; `ends` names the two ends
/// (["MIN", "MAX"] or ["LEFT", "RIGHT"]).
pub fn parse<'a>(args: &Args<'a>, at: usize, ends: [&str; 2]) -> Result<MPop<'a>, CmdError> {
    let numkeys = match arg_i64(args.get(at)) {
        Ok(n) if n > 0 => n as u64,
        _ => return Err(CmdError::msg("ERR numkeys should be greater than 0")),
    };
    let end_at = (at as u64).saturating_add(numkeys).saturating_add(1);
    if end_at >= args.len() as u64 {
        return Err(CmdError::Syntax);
    }
    let end_at = end_at as usize;
    let max = if is(args.get(end_at), ends[0]) {
        false
    } else if is(args.get(end_at), ends[1]) {
        true
    } else {
        return Err(CmdError::Syntax);
    };
    let mut count = None;
    let mut i = end_at + 1;
    while i < args.len() {
        if count.is_none() && is(args.get(i), "count") && i + 1 < args.len() {
            match arg_i64(args.get(i + 1)) {
                Ok(n) if n > 0 => count = Some(n as usize),
                _ => return Err(CmdError::msg("ERR count should be greater than 0")),
            }
            i += 2;
        } else {
            return Err(CmdError::Syntax);
        }
    }
    Ok(MPop { keys: (at + 1..end_at).map(|i| args.get(i)).collect(), max, count: count.unwrap_or(1) })
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let p = parse(&args, 1, ["min", "max"])?;
    match pop_first(ctx, &p.keys, p.max, p.count)? {
        Some((key, members)) => {
            ctx.reply.array(2);
            ctx.reply.bulk(&key);
            write_members(ctx.reply, &members, true);
        }
        None => ctx.reply.null_array(),
    }
    Ok(())
}
