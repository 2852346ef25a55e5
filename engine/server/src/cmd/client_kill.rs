//! CLIENT KILL addr:port, or CLIENT KILL [ID id] [ADDR addr] [LADDR addr] [USER name]
//! [SKIPME yes|no]: closes matching connections (after their current command).

use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

#[derive(Default)]
struct Filter {
    id: Option<u64>,
    addr: Option<String>,
    laddr: Option<String>,
    user: Option<String>,
    skip_me: bool,
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let old_form = args.len() == 3;
    let filter = if old_form {
        Filter { addr: Some(String::from_utf8_lossy(args.get(2)).into_owned()), ..Filter::default() }
    } else {
        parse(&args)?
    };
    let me = ctx.session.id();
    let mut killed = 0;
    for client in ctx.shared.clients.all() {
        let meta = client.meta();
        let matches = filter.id.is_none_or(|id| id == client.id)
            && filter.addr.as_ref().is_none_or(|a| *a == client.addr.to_string())
            && filter.laddr.as_ref().is_none_or(|a| *a == client.local_addr.to_string())
            && filter.user.as_ref().is_none_or(|u| *u == meta.user)
            && !(filter.skip_me && client.id == me);
        if matches {
            if client.id == me {
                ctx.session.close_after_reply = true;
            } else {
                client.kill();
            }
            killed += 1;
        }
    }
    if old_form {
        if killed == 0 {
            return Err(CmdError::msg("ERR No such client"));
        }
        ctx.reply.ok();
    } else {
        ctx.reply.int(killed);
    }
    Ok(())
}

fn parse(args: &Args<'_>) -> Result<Filter, CmdError> {
    if !args.len().is_multiple_of(2) {
        return Err(CmdError::Syntax);
    }
    let mut filter = Filter { skip_me: true, ..Filter::default() };
    for pair in (2..args.len()).step_by(2) {
        let (name, value) = (args.get(pair), args.get(pair + 1));
        let text = || String::from_utf8_lossy(value).into_owned();
        if is(name, "id") {
            match arg_i64(value) {
                Ok(id) if id > 0 => filter.id = Some(id as u64),
                _ => return Err(CmdError::msg("ERR client-id should be greater than 0")),
            }
        } else if is(name, "addr") {
            filter.addr = Some(text());
        } else if is(name, "laddr") {
            filter.laddr = Some(text());
        } else if is(name, "user") {
            filter.user = Some(text());
        } else if is(name, "skipme") {
            filter.skip_me = if is(value, "yes") {
                true
            } else if is(value, "no") {
                false
            } else {
                return Err(CmdError::Syntax);
            };
        } else {
            return Err(CmdError::Syntax);
        }
    }
    Ok(filter)
}
