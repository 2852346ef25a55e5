//! The keys of a command, for ACL key rules: by first/last/step from the table, or for the
//! `movablekeys` commands (a numkeys count, as Redis' `keynum` key specs) from the arguments.

use crate::acl::command_keys;
use crate::resp::Args;
use crate::table::{flag, CommandSpec};

/// The key arguments of `args` under `spec`.
pub fn keys<'a>(spec: &CommandSpec, args: &Args<'a>) -> Vec<&'a [u8]> {
    let mut keys = command_keys(spec.first_key, spec.last_key, spec.key_step, args);
    if spec.flags & flag::MOVABLEKEYS != 0 {
        if let Some(at) = numkeys_index(spec.name) {
            keys.extend(counted(args, at));
        } else if matches!(spec.name, "xread" | "xreadgroup") {
            keys.extend(stream_keys(args));
        }
    }
    keys
}

/// Where the numkeys argument is (ZUNIONSTORE has its destination before it, the blocking
/// forms their timeout).
fn numkeys_index(name: &str) -> Option<usize> {
    match name {
        "zunion" | "zinter" | "zdiff" | "zintercard" | "sintercard" | "zmpop" | "lmpop" => Some(1),
        "zunionstore" | "zinterstore" | "zdiffstore" | "bzmpop" | "blmpop" => Some(2),
        _ => None,
    }
}

/// The `numkeys` keys after `args[at]` (as many as there are when the count is too large or
/// not a number: the command refuses such arguments itself).
fn counted<'a>(args: &Args<'a>, at: usize) -> Vec<&'a [u8]> {
    let Some(n) = args.try_get(at).and_then(crate::resp::number::parse_i64) else { return Vec::new() };
    let n = n.max(0) as usize;
    (at + 1..args.len()).take(n).map(|i| args.get(i)).collect()
}

/// XREAD/XREADGROUP: the first half of the arguments after STREAMS (the rest are ids).
fn stream_keys<'a>(args: &Args<'a>) -> Vec<&'a [u8]> {
    let Some(at) = (1..args.len()).find(|&i| args.get(i).eq_ignore_ascii_case(b"streams")) else { return Vec::new() };
    let n = (args.len() - at - 1) / 2;
    (at + 1..at + 1 + n).map(|i| args.get(i)).collect()
}
