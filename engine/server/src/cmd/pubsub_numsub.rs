//! PUBSUB NUMSUB [channel ...]: each channel and its number of subscribers.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    ctx.reply.map(args.len() - 2);
    for channel in args.iter().skip(2) {
        ctx.reply.bulk(channel);
        ctx.reply.int(ctx.shared.pubsub.subscribers(channel) as i64);
    }
    Ok(())
}
