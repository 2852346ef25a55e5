//! PUBLISH channel message: delivers to every subscriber of the channel and of each matching
//! pattern; replies with how many received it.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    super::subscribe::permit(ctx, &[args.get(1)], false)?;
    let receivers = ctx.shared.pubsub.publish(args.get(1), args.get(2));
    ctx.reply.int(receivers as i64);
    Ok(())
}
