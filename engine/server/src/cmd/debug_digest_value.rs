//! DEBUG DIGEST-VALUE key [key ...]: a SHA1 of each key's value (40 zeros for a missing key),
//! equal for equal values whatever their order in memory (hash fields and set members are
//! sorted first). Redis' suite compares digests to check COPY and RESTORE; the digits are
//! Basalt's own, not Redis' xor-of-elements digest.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::number::push_f64;
use crate::resp::Args;
use basalt_storage::Value;

fn serialize(value: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    let put = |out: &mut Vec<u8>, b: &[u8]| {
        out.extend_from_slice(&(b.len() as u64).to_be_bytes());
        out.extend_from_slice(b);
    };
    match value {
        Value::Str(s) => {
            out.push(b's');
            put(&mut out, s);
        }
        Value::List(l) => {
            out.push(b'l');
            for e in l {
                put(&mut out, e);
            }
        }
        Value::Set(s) => {
            out.push(b'S');
            let mut members: Vec<_> = s.iter().collect();
            members.sort();
            for m in members {
                put(&mut out, m);
            }
        }
        Value::Hash(h) => {
            out.push(b'h');
            let mut pairs: Vec<_> = h.iter().collect();
            pairs.sort();
            for (f, v) in pairs {
                put(&mut out, f);
                put(&mut out, v);
            }
        }
        Value::ZSet(z) => {
            out.push(b'z');
            for (m, score) in z.iter() {
                put(&mut out, m);
                let mut text = Vec::new();
                push_f64(&mut text, score);
                put(&mut out, &text);
            }
        }
        // The log's encoding of a stream is already canonical (every part in id or name order).
        Value::Stream(_) => {
            out.push(b'x');
            out.extend_from_slice(&basalt_storage::dump(value));
        }
    }
    out
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let keys: Vec<&[u8]> = args.tail(2).iter().collect();
    ctx.reply.array(keys.len());
    for key in keys {
        let digest = ctx.db().read(key, |e| e.map(|e| crate::scripting::sha1_hex(&serialize(&e.value))))?;
        ctx.reply.simple(&digest.unwrap_or_else(|| "0".repeat(40)));
    }
    Ok(())
}
