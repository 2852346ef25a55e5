//! CLIENT LIST [TYPE normal|master|replica|pubsub] [ID client-id ...]

use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let mut only_ids: Option<Vec<u64>> = None;
    let mut only_normal = true;
    let mut i = 2;
    while i < args.len() {
        if is(args.get(i), "type") && i + 1 < args.len() {
            let kind = args.get(i + 1);
            only_normal = if is(kind, "normal") {
                true
            } else if is(kind, "master") || is(kind, "replica") || is(kind, "pubsub") || is(kind, "slave") {
                false
            } else {
                return Err(CmdError::msg(format!(
                    "ERR Unknown client type '{}'",
                    String::from_utf8_lossy(kind)
                )));
            };
            i += 2;
        } else if is(args.get(i), "id") && i + 1 < args.len() {
            let mut ids = Vec::new();
            for arg in args.tail(i + 1).iter() {
                match arg_i64(arg) {
                    Ok(id) if id > 0 => ids.push(id as u64),
                    _ => return Err(CmdError::msg("ERR Invalid client ID")),
                }
            }
            only_ids = Some(ids);
            i = args.len();
        } else {
            return Err(CmdError::Syntax);
        }
    }
    let mut text = String::new();
    if only_normal {
        for client in ctx.shared.clients.all() {
            if only_ids.as_ref().is_some_and(|ids| !ids.contains(&client.id)) {
                continue;
            }
            text.push_str(&client.describe());
            text.push('\n');
        }
    }
    ctx.reply.verbatim(text.as_bytes());
    Ok(())
}
