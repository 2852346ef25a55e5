//! HELLO [protover [AUTH username password] [SETNAME clientname]]

use super::{is, Ctx};
use crate::cmd::client_setname::valid_name;
use crate::error::{CmdError, CmdResult};
use crate::resp::number::parse_i64;
use crate::resp::Args;

/// The Redis version whose protocol and commands Basalt follows (clients read it).
pub const REDIS_VERSION: &str = "7.0.0";

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let mut proto = if ctx.reply.resp3 { 3 } else { 2 };
    let mut next = 1;
    if args.len() >= 2 {
        proto = match parse_i64(args.get(1)) {
            Some(v) => v,
            None => return Err(CmdError::msg("ERR Protocol version is not an integer or out of range")),
        };
        if !(2..=3).contains(&proto) {
            return Err(CmdError::msg("NOPROTO unsupported protocol version"));
        }
        next = 2;
    }
    let mut credentials = None;
    let mut name = None;
    while next < args.len() {
        let option = args.get(next);
        if is(option, "auth") && next + 2 < args.len() {
            credentials = Some((args.get(next + 1), args.get(next + 2)));
            next += 3;
        } else if is(option, "setname") && next + 1 < args.len() {
            let candidate = args.get(next + 1);
            if !valid_name(candidate) {
                return Err(CmdError::msg(
                    "ERR Client names cannot contain spaces, newlines or special characters.",
                ));
            }
            name = Some(String::from_utf8_lossy(candidate).into_owned());
            next += 2;
        } else {
            return Err(CmdError::msg(format!(
                "ERR Syntax error in HELLO option '{}'",
                String::from_utf8_lossy(option)
            )));
        }
    }
    if let Some((user, password)) = credentials {
        let who = ctx.shared.auth.authenticate(Some(user), password).map_err(CmdError::Other)?;
        ctx.session.handle.update_meta(|m| m.user = who.clone());
        ctx.session.user = Some(who);
    }
    if ctx.session.user.is_none() {
        return Err(CmdError::msg(
            "NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO <proto> \
             AUTH <user> <pass> option can be used to authenticate the client and select the RESP protocol \
             version at the same time",
        ));
    }
    if let Some(name) = name {
        ctx.session.handle.update_meta(|m| m.name = if name.is_empty() { None } else { Some(name) });
    }
    ctx.reply.resp3 = proto == 3;
    ctx.session.handle.update_meta(|m| m.resp = proto as u8);
    let reply = &mut *ctx.reply;
    reply.map(7);
    reply.bulk(b"server");
    reply.bulk(b"redis");
    reply.bulk(b"version");
    reply.bulk(REDIS_VERSION.as_bytes());
    reply.bulk(b"proto");
    reply.int(proto);
    reply.bulk(b"id");
    reply.int(ctx.session.id() as i64);
    reply.bulk(b"mode");
    reply.bulk(b"standalone");
    reply.bulk(b"role");
    reply.bulk(b"master");
    reply.bulk(b"modules");
    reply.array(0);
    Ok(())
}
