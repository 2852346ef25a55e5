//! XGROUP CREATE key group id|$ [MKSTREAM] [ENTRIESREAD n] | SETID key group id|$ [ENTRIESREAD n]
//! | DESTROY key group | CREATECONSUMER key group consumer | DELCONSUMER key group consumer
//! | HELP: consumer groups, as Redis 7.0's `xgroupCommand` (one handler for every subcommand,
//! so the checks run in Redis' order).

use super::stream_util::{b, change, event, existing, parse_id, strict_id, touch_consumer};
use super::{arg_i64, help_reply, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::{Entry, StreamDelta, StreamId, Value, ENTRIES_READ_UNKNOWN};

const HELP: &[&str] = &[
    "XGROUP <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "CREATE <key> <groupname> <id|$> [option]",
    "    Create a new consumer group. Options are:",
    "    * MKSTREAM",
    "      Create the empty stream if it does not exist.",
    "    * ENTRIESREAD entries_read",
    "      Set the group's entries_read counter (internal use).",
    "CREATECONSUMER <key> <groupname> <consumer>",
    "    Create a new consumer in the specified group.",
    "DELCONSUMER <key> <groupname> <consumer>",
    "    Remove the specified consumer.",
    "DESTROY <key> <groupname>",
    "    Remove the specified group.",
    "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
    "    Set the current group ID and entries_read counter.",
    "HELP",
    "    Prints this help.",
];

fn syntax(args: &Args<'_>) -> CmdError {
    CmdError::bad_subcommand("XGROUP", args.get(1))
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let sub = args.get(1).to_ascii_lowercase();
    if sub == b"help" && args.len() == 2 {
        return help_reply(ctx, HELP);
    }
    let (create, setid) = (sub == b"create", sub == b"setid");
    let mut mkstream = false;
    let mut entries_read = ENTRIES_READ_UNKNOWN;
    let mut i = 5;
    while i < args.len() {
        if create && is(args.get(i), "mkstream") {
            mkstream = true;
            i += 1;
        } else if (create || setid) && is(args.get(i), "entriesread") && i + 1 < args.len() {
            entries_read = arg_i64(args.get(i + 1))?;
            if entries_read < 0 && entries_read != ENTRIES_READ_UNKNOWN {
                return Err(CmdError::msg("ERR value for ENTRIESREAD must be positive or -1"));
            }
            i += 2;
        } else {
            return Err(syntax(&args));
        }
    }
    let (key, group) = (args.get(2), args.get(3));
    let (out, lsn) = ctx.db().update(key, |slot| -> Result<Option<(i64, &'static str)>, CmdError> {
        let s = existing(slot)?;
        if s.is_none() && !mkstream {
            return Err(CmdError::msg(
                "ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.",
            ));
        }
        let has_group = s.is_some_and(|s| s.groups.contains_key(group));
        if s.is_some() && !has_group && !mkstream && (setid || sub == b"createconsumer" || sub == b"delconsumer") {
            return Err(CmdError::msg(format!(
                "NOGROUP No such consumer group '{}' for key name '{}'",
                String::from_utf8_lossy(group),
                String::from_utf8_lossy(key)
            )));
        }
        let last = s.map_or(StreamId::MIN, |s| s.last_id);
        match sub.as_slice() {
            b"create" if (5..=8).contains(&args.len()) => {
                let id = if args.get(4) == b"$" { last } else { strict_id(args.get(4))? };
                if s.is_none() {
                    slot.put(Entry::new(Value::Stream(Box::default())));
                }
                if has_group {
                    return Err(CmdError::msg("BUSYGROUP Consumer Group name already exists"));
                }
                change(slot, StreamDelta::GroupSet { group: b(group), last_id: id, entries_read });
                Ok(Some((-1, "xgroup-create")))
            }
            b"setid" if args.len() == 5 || args.len() == 7 => {
                let id = if args.get(4) == b"$" { last } else { parse_id(args.get(4), 0, false, false)?.0 };
                change(slot, StreamDelta::GroupSet { group: b(group), last_id: id, entries_read });
                Ok(Some((-1, "xgroup-setid")))
            }
            b"destroy" if args.len() == 4 => {
                if change(slot, StreamDelta::GroupDel(b(group))) {
                    Ok(Some((1, "xgroup-destroy")))
                } else {
                    Ok(Some((0, "")))
                }
            }
            b"createconsumer" if args.len() == 5 => {
                let exists = s.is_some_and(|s| s.groups.get(group).is_some_and(|g| g.consumers.contains_key(args.get(4))));
                if exists {
                    return Ok(Some((0, "")));
                }
                touch_consumer(slot, group, args.get(4));
                Ok(Some((1, "xgroup-createconsumer")))
            }
            b"delconsumer" if args.len() == 5 => {
                let pending = s.and_then(|s| s.groups.get(group)?.consumers.get(args.get(4)).map(|c| c.pending.len() as i64));
                match pending {
                    None => Ok(Some((0, ""))),
                    Some(n) => {
                        change(slot, StreamDelta::ConsumerDel { group: b(group), consumer: b(args.get(4)) });
                        Ok(Some((n, "xgroup-delconsumer")))
                    }
                }
            }
            _ => Ok(None),
        }
    })?;
    ctx.wrote(lsn);
    match out? {
        None => return Err(syntax(&args)),
        Some((-1, name)) => {
            ctx.reply.ok();
            event(ctx, key, name);
        }
        Some((n, name)) => {
            ctx.reply.int(n);
            if !name.is_empty() {
                event(ctx, key, name);
            }
        }
    }
    Ok(())
}
