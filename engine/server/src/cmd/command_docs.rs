//! COMMAND DOCS [command-name ...]: summary, since and group per command; unknown names skipped.

use super::command::write_docs;
use super::Ctx;
use crate::error::CmdResult;
use crate::registry::registry;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let reg = registry();
    let indices: Vec<usize> = if args.len() == 2 {
        reg.top_level.clone()
    } else {
        args.tail(2).iter().filter_map(|name| reg.lookup_full(name)).collect()
    };
    ctx.reply.map(indices.len());
    for index in indices {
        ctx.reply.bulk(reg.entries[index].fullname.as_bytes());
        write_docs(ctx.reply, index);
    }
    Ok(())
}
