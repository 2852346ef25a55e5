//! COMMAND: every command's description, from the table (as COMMAND INFO without names).

use super::Ctx;
use crate::error::CmdResult;
use crate::registry::registry;
use crate::resp::{Args, Reply};
use crate::table::{acl, flag};

/// Writes the `COMMAND INFO` description of registry entry `index`, as Redis 7 does.
pub fn write_info(reply: &mut Reply, index: usize) {
    let reg = registry();
    let entry = &reg.entries[index];
    let spec = entry.spec;
    reply.array(10);
    reply.bulk(entry.fullname.as_bytes());
    reply.int(spec.arity as i64);
    let flags: Vec<&str> = flag::NAMES.iter().filter(|(bit, _)| spec.flags & bit != 0).map(|(_, n)| *n).collect();
    reply.set(flags.len());
    for name in flags {
        reply.simple(name);
    }
    reply.int(spec.first_key as i64);
    reply.int(spec.last_key as i64);
    reply.int(spec.key_step as i64);
    let cats: Vec<&str> = acl::NAMES.iter().filter(|(bit, _)| spec.acl & bit != 0).map(|(_, n)| *n).collect();
    reply.set(cats.len());
    for name in cats {
        reply.simple(name);
    }
    reply.array(0); // tips
    if spec.first_key > 0 {
        reply.array(1);
        reply.map(3);
        reply.bulk(b"flags");
        reply.set(1);
        reply.simple(if spec.is_write() { "RW" } else { "RO" });
        reply.bulk(b"begin_search");
        reply.map(2);
        reply.bulk(b"type");
        reply.bulk(b"index");
        reply.bulk(b"spec");
        reply.map(1);
        reply.bulk(b"index");
        reply.int(spec.first_key as i64);
        reply.bulk(b"find_keys");
        reply.map(2);
        reply.bulk(b"type");
        reply.bulk(b"range");
        reply.bulk(b"spec");
        reply.map(3);
        reply.bulk(b"lastkey");
        reply.int(if spec.last_key < 0 { spec.last_key as i64 } else { (spec.last_key - spec.first_key) as i64 });
        reply.bulk(b"keystep");
        reply.int(spec.key_step as i64);
        reply.bulk(b"limit");
        reply.int(0);
    } else {
        reply.array(0);
    }
    let subs = entry.subcommands.clone();
    reply.array(subs.len());
    for sub in subs {
        write_info(reply, sub);
    }
}

/// Writes the `COMMAND DOCS` map of registry entry `index` (name excluded).
pub fn write_docs(reply: &mut Reply, index: usize) {
    let reg = registry();
    let entry = &reg.entries[index];
    let spec = entry.spec;
    let has_subs = !entry.subcommands.is_empty();
    reply.map(if has_subs { 4 } else { 3 });
    reply.bulk(b"summary");
    reply.bulk(spec.summary.as_bytes());
    reply.bulk(b"since");
    reply.bulk(spec.since.as_bytes());
    reply.bulk(b"group");
    reply.bulk(spec.group.as_bytes());
    if has_subs {
        reply.bulk(b"subcommands");
        reply.map(entry.subcommands.len());
        for sub in entry.subcommands.clone() {
            reply.bulk(reg.entries[sub].fullname.as_bytes());
            write_docs(reply, sub);
        }
    }
}

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    let reg = registry();
    ctx.reply.array(reg.top_level.len());
    for &index in &reg.top_level {
        write_info(ctx.reply, index);
    }
    Ok(())
}
