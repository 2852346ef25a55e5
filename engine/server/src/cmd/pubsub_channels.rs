//! PUBSUB CHANNELS [pattern]: the channels with at least one subscriber.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    if args.len() > 3 {
        return Err(crate::error::CmdError::WrongArgs("pubsub|channels"));
    }
    let names = ctx.shared.pubsub.active_channels(args.try_get(2));
    ctx.reply.array(names.len());
    for name in names {
        ctx.reply.bulk(&name);
    }
    Ok(())
}
