//! KEYS pattern

use super::Ctx;
use crate::error::CmdResult;
use crate::glob;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let pattern = args.get(1);
    let all = pattern == b"*";
    let mut found = Vec::new();
    let mut cursor = 0;
    loop {
        let page = ctx.db().scan(cursor, 1024);
        found.extend(page.keys.into_iter().filter(|(k, _)| all || glob::matches(pattern, k, false)).map(|(k, _)| k));
        cursor = page.cursor;
        if cursor == 0 {
            break;
        }
    }
    ctx.reply.array(found.len());
    for key in &found {
        ctx.reply.bulk(key);
    }
    Ok(())
}
