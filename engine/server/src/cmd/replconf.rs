//! REPLCONF option value ...: what a replica says about itself before PSYNC
//! (`listening-port`, `capa`, `ip-address`); `ACK` is read by the link itself afterwards.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    if args.len().is_multiple_of(2) {
        return Err(CmdError::Syntax);
    }
    for i in (1..args.len()).step_by(2) {
        let option = args.get(i);
        if option.eq_ignore_ascii_case(b"listening-port") {
            let port: u16 = std::str::from_utf8(args.get(i + 1)).ok().and_then(|s| s.parse().ok()).ok_or(CmdError::NotInteger)?;
            let mut announced = crate::replication::lock(&ctx.shared.repl.announced);
            // Kept until the connection's PSYNC; connections that never send one must not grow it.
            if announced.len() >= 1024 {
                announced.clear();
            }
            announced.insert(ctx.session.id(), port);
        } else if option.eq_ignore_ascii_case(b"ack") || option.eq_ignore_ascii_case(b"getack") {
            // Only meaningful on a replication link; ignored here, as Redis does.
            return Ok(());
        } else if !(option.eq_ignore_ascii_case(b"capa") || option.eq_ignore_ascii_case(b"ip-address")) {
            let name = String::from_utf8_lossy(option);
            return Err(CmdError::msg(format!("ERR Unrecognized REPLCONF option: {name}")));
        }
    }
    ctx.reply.ok();
    Ok(())
}
