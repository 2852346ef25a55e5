//! SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]

use super::util::{parse_cursor, parse_scan_options};
use super::Ctx;
use crate::error::CmdResult;
use crate::glob;
use crate::resp::Args;
use basalt_storage::Kind;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let cursor = parse_cursor(args.get(1))?;
    let opts = parse_scan_options(args.tail(2), true, false)?;
    // An unknown TYPE matches nothing, as in Redis.
    let kind: Option<Option<Kind>> = opts.kind.map(Kind::from_name);
    let page = ctx.db().scan(cursor, opts.count);
    let keys: Vec<_> = page
        .keys
        .iter()
        .filter(|(key, k)| {
            kind.is_none_or(|want| want == Some(*k)) && opts.pattern.is_none_or(|p| glob::matches(p, key, false))
        })
        .collect();
    ctx.reply.array(2);
    ctx.reply.bulk(page.cursor.to_string().as_bytes());
    ctx.reply.array(keys.len());
    for (key, _) in keys {
        ctx.reply.bulk(key);
    }
    Ok(())
}
