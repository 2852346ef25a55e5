//! LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]: positions of matching
//! elements (counted from the head even when RANK is negative and the search runs from the
//! tail): one index or null, or with COUNT an array.

use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (mut rank, mut count, mut maxlen) = (1i64, None, 0usize);
    let mut j = 3;
    while j < args.len() {
        let more = j + 1 < args.len();
        let opt = args.get(j);
        if is(opt, "rank") && more {
            rank = arg_i64(args.get(j + 1))?;
            if rank == 0 {
                return Err(CmdError::msg(
                    "ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list",
                ));
            }
        } else if is(opt, "count") && more {
            count = Some(non_negative(args.get(j + 1), "ERR COUNT can't be negative")?);
        } else if is(opt, "maxlen") && more {
            maxlen = non_negative(args.get(j + 1), "ERR MAXLEN can't be negative")?;
        } else {
            return Err(CmdError::Syntax);
        }
        j += 2;
    }
    let element = args.get(2);
    let found = ctx.db().read(args.get(1), |entry| match entry.map(|e| &e.value) {
        None => Ok(Vec::new()),
        Some(Value::List(l)) => {
            let len = l.len();
            let scan = if maxlen == 0 { len } else { maxlen.min(len) };
            let wanted = match count {
                Some(0) => usize::MAX,
                Some(n) => n,
                None => 1,
            };
            // Redis negates RANK i64::MIN into itself: the first match from the tail.
            let skip = if rank == i64::MIN { 0 } else { (rank.unsigned_abs() - 1) as usize };
            let positions: Box<dyn Iterator<Item = usize>> = if rank > 0 { Box::new(0..scan) } else { Box::new((len - scan..len).rev()) };
            Ok(positions.filter(|&i| l[i].as_ref() == element).skip(skip).take(wanted).collect())
        }
        Some(_) => Err(CmdError::WrongType),
    })??;
    match count {
        None => match found.first() {
            Some(&i) => ctx.reply.int(i as i64),
            None => ctx.reply.null(),
        },
        Some(_) => {
            ctx.reply.array(found.len());
            for i in found {
                ctx.reply.int(i as i64);
            }
        }
    }
    Ok(())
}

fn non_negative(arg: &[u8], message: &str) -> Result<usize, CmdError> {
    // Redis answers `message` for a non-number too.
    match arg_i64(arg) {
        Ok(n) if n >= 0 => Ok(n as usize),
        _ => Err(CmdError::msg(message)),
    }
}
