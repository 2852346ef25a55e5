//! PUBSUB NUMPAT: the number of distinct patterns subscribed to.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    ctx.reply.int(ctx.shared.pubsub.pattern_count() as i64);
    Ok(())
}
