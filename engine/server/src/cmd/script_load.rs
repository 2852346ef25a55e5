//! SCRIPT LOAD script: compiles and caches a script; replies with its SHA1.

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let body = args.get(2);
    crate::scripting::vm::check_compiles(ctx, &String::from_utf8_lossy(body))?;
    let sha = ctx.shared.scripts.add(body);
    ctx.reply.bulk(sha.as_bytes());
    Ok(())
}
