//! DEBUG LOG message: writes the message to the server's log (stderr), as test harnesses
//! mark where each test starts.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    eprintln!("basalt-server: DEBUG LOG: {}", String::from_utf8_lossy(args.get(2)).replace(['\r', '\n'], " "));
    ctx.reply.ok();
    Ok(())
}
