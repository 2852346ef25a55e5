//! TIME: unix seconds and microseconds, as two bulk strings.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    ctx.reply.array(2);
    ctx.reply.bulk(now.as_secs().to_string().as_bytes());
    ctx.reply.bulk(now.subsec_micros().to_string().as_bytes());
    Ok(())
}
