//! SPOP key [count]: removes and returns random members (one as a bulk, a count as an array).

use super::util::random_u64;
use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Delta, Value};
use bytes::Bytes;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let count = match args.try_get(2) {
        None => None,
        Some(arg) => match arg_i64(arg) {
            Ok(n) if n >= 0 => Some(n as usize),
            _ => return Err(CmdError::msg("ERR value is out of range, must be positive")),
        },
    };
    if args.len() > 3 {
        return Err(CmdError::Syntax);
    }
    let (popped, lsn) = ctx.db().update(args.get(1), |slot| -> Result<Vec<Bytes>, CmdError> {
        match slot.get().map(|e| &e.value) {
            None => return Ok(Vec::new()),
            Some(Value::Set(_)) => {}
            Some(_) => return Err(CmdError::WrongType),
        }
        let mut out = Vec::new();
        for _ in 0..count.unwrap_or(1) {
            let Some(Value::Set(set)) = slot.get().map(|e| &e.value) else { break };
            if set.is_empty() {
                break;
            }
            let at = (random_u64() % set.len() as u64) as usize;
            let member = set.iter().nth(at).cloned().expect("index within the set");
            slot.apply(Delta::SetRem(member.clone()));
            out.push(member);
        }
        Ok(out)
    })?;
    ctx.wrote(lsn);
    let popped = popped?;
    match count {
        None => match popped.first() {
            Some(member) => ctx.reply.bulk(member),
            None => ctx.reply.null(),
        },
        Some(_) => {
            ctx.reply.set(popped.len());
            for member in &popped {
                ctx.reply.bulk(member);
            }
        }
    }
    Ok(())
}
