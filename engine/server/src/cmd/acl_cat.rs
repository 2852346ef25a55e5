//! ACL CAT [category]

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::registry::registry;
use crate::resp::Args;
use crate::table::acl::NAMES;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    if args.len() > 3 {
        return Err(CmdError::WrongArgs("acl|cat"));
    }
    if args.len() == 2 {
        ctx.reply.array(NAMES.len());
        for (_, name) in NAMES {
            ctx.reply.bulk(&name.as_bytes()[1..]);
        }
        return Ok(());
    }
    let wanted = args.get(2);
    let Some((bit, _)) = NAMES.iter().find(|(_, n)| n.as_bytes()[1..].eq_ignore_ascii_case(wanted)) else {
        return Err(CmdError::msg(format!("ERR Unknown category '{}'", String::from_utf8_lossy(wanted))));
    };
    let names: Vec<&str> =
        registry().entries.iter().filter(|e| e.spec.acl & bit != 0).map(|e| e.fullname.as_str()).collect();
    ctx.reply.array(names.len());
    for name in names {
        ctx.reply.bulk(name.as_bytes());
    }
    Ok(())
}
