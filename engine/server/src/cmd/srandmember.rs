//! SRANDMEMBER key [count]: random members without removing them; a negative count may
//! repeat members, a positive one returns distinct members.

use super::util::random_u64;
use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::Value;
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let count = match args.try_get(2) {
        None => None,
        Some(arg) => match arg_i64(arg)? {
            // Repeating members: the reply is held in memory, so it is bounded.
            n if n < -(1 << 24) => return Err(CmdError::msg("ERR value is out of range")),
            n => Some(n),
        },
    };
    if args.len() > 3 {
        return Err(CmdError::Syntax);
    }
    let picked = ctx.db().read(args.get(1), |entry| -> Result<Option<Vec<Bytes>>, CmdError> {
        let set = match entry.map(|e| &e.value) {
            None => return Ok(None),
            Some(Value::Set(s)) => s,
            Some(_) => return Err(CmdError::WrongType),
        };
        let members: Vec<&Bytes> = set.iter().collect();
        let pick = || members[(random_u64() % members.len() as u64) as usize].clone();
        Ok(Some(match count {
            None => vec![pick()],
            Some(n) if n < 0 => (0..n.unsigned_abs()).map(|_| pick()).collect(),
            Some(n) if n as usize >= members.len() => members.iter().map(|m| (*m).clone()).collect(),
            Some(n) => {
                let mut chosen: Vec<Bytes> = members.iter().map(|m| (*m).clone()).collect();
                for i in 0..n as usize {
                    let j = i + (random_u64() % (chosen.len() - i) as u64) as usize;
                    chosen.swap(i, j);
                }
                chosen.truncate(n as usize);
                chosen
            }
        }))
    })??;
    match (count, picked) {
        (None, Some(mut one)) => ctx.reply.bulk(&one.remove(0)),
        (None, None) => ctx.reply.null(),
        (Some(_), None) => ctx.reply.array(0),
        (Some(_), Some(members)) => {
            ctx.reply.array(members.len());
            for m in &members {
                ctx.reply.bulk(m);
            }
        }
    }
    Ok(())
}
