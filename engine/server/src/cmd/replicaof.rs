//! REPLICAOF host port | REPLICAOF NO ONE (and its old name SLAVEOF).

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let host = String::from_utf8_lossy(args.get(1)).into_owned();
    let port = String::from_utf8_lossy(args.get(2)).into_owned();
    let target = if host.eq_ignore_ascii_case("no") && port.eq_ignore_ascii_case("one") {
        None
    } else {
        let port: u16 = port.parse().ok().filter(|p| *p > 0).ok_or(CmdError::msg("ERR Invalid master port"))?;
        if host.is_empty() || host.contains(char::is_whitespace) {
            return Err(CmdError::msg("ERR Invalid master host"));
        }
        Some((host, port))
    };
    if target.as_ref().is_some_and(|(h, p)| is_self(ctx, h, *p)) {
        return Err(CmdError::msg("ERR Can't replicate myself"));
    }
    // Alone (as EXEC): no write that passed the role check before the change can still be
    // appending, so nothing reaches this node's log that its new primary does not send.
    let shared = ctx.shared;
    crate::multi::alone(shared, || shared.repl.replicaof(target)).map_err(CmdError::Other)?;
    ctx.reply.ok();
    Ok(())
}

fn is_self(ctx: &Ctx<'_>, host: &str, port: u16) -> bool {
    let local = ctx.shared.local_addr;
    port == local.port() && host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip == local.ip() || (ip.is_loopback() && local.ip().is_loopback()))
}
