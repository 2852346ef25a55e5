//! INFO [section ...]

use super::Ctx;
use crate::error::CmdResult;
use crate::info;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let asked: Vec<String> = args.tail(1).iter().map(|a| String::from_utf8_lossy(a).into_owned()).collect();
    let text = info::render(ctx.shared, &info::sections_for(&asked));
    ctx.reply.verbatim(text.as_bytes());
    Ok(())
}
