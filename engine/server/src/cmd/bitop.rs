//! BITOP AND|OR|XOR|NOT destkey key [key ...]: the bitwise operation of the source strings
//! (missing keys are empty, shorter strings padded with zeros) stored in destkey; replies with
//! its length. An empty result deletes destkey. One batch: sources read and destination
//! written atomically, as one log record.

use super::util::as_str;
use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Entry, Value};
use bytes::Bytes;

#[derive(Clone, Copy, PartialEq)]
enum Op {
    And,
    Or,
    Xor,
    Not,
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let op = match args.get(1) {
        o if is(o, "and") => Op::And,
        o if is(o, "or") => Op::Or,
        o if is(o, "xor") => Op::Xor,
        o if is(o, "not") => Op::Not,
        _ => return Err(CmdError::Syntax),
    };
    if op == Op::Not && args.len() != 4 {
        return Err(CmdError::msg("ERR BITOP NOT must be called with a single source key."));
    }
    let dest = args.get(2);
    let keys: Vec<&[u8]> = args.iter().skip(2).collect();
    let (len, lsn) = ctx.db().batch(&keys, |txn| -> Result<usize, CmdError> {
        let mut sources: Vec<Bytes> = Vec::with_capacity(keys.len() - 1);
        for key in &keys[1..] {
            sources.push(match txn.get(key) {
                Some(entry) => as_str(entry)?.clone(),
                None => Bytes::new(),
            });
        }
        let out = combine(op, &sources);
        if out.is_empty() {
            txn.remove(dest);
        } else {
            txn.put(dest, Entry::new(Value::Str(Bytes::from(out.clone()))));
        }
        Ok(out.len())
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(len? as i64);
    Ok(())
}

fn combine(op: Op, sources: &[Bytes]) -> Vec<u8> {
    let len = sources.iter().map(Bytes::len).max().unwrap_or(0);
    let byte = |s: &Bytes, i: usize| s.get(i).copied().unwrap_or(0);
    (0..len)
        .map(|i| match op {
            Op::Not => !byte(&sources[0], i),
            Op::And => sources.iter().fold(0xff, |acc, s| acc & byte(s, i)),
            Op::Or => sources.iter().fold(0, |acc, s| acc | byte(s, i)),
            Op::Xor => sources.iter().fold(0, |acc, s| acc ^ byte(s, i)),
        })
        .collect()
}
