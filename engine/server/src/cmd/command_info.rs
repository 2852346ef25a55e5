//! COMMAND INFO [command-name ...]: all commands without names; a null for each unknown name.

use super::command::write_info;
use super::Ctx;
use crate::error::CmdResult;
use crate::registry::registry;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    if args.len() == 2 {
        return super::command::run(ctx, args);
    }
    let reg = registry();
    ctx.reply.array(args.len() - 2);
    for name in args.tail(2).iter() {
        match reg.lookup_full(name) {
            Some(index) => write_info(ctx.reply, index),
            None => ctx.reply.null(),
        }
    }
    Ok(())
}
