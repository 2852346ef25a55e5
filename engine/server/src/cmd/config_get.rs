//! CONFIG GET parameter [parameter ...]: glob patterns over the names of `settings.rs`'
//! table; a map of name to value.

use super::Ctx;
use crate::error::CmdResult;
use crate::glob;
use crate::resp::Args;
use crate::settings::{self, PARAMETERS};

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let config = ctx.shared.config();
    let mut found: Vec<(String, String)> = Vec::new();
    for pattern in args.tail(2).iter() {
        let name = String::from_utf8_lossy(pattern).to_ascii_lowercase();
        // An alias spelled out exactly answers under the name asked for.
        if let Some(parameter) = settings::find(&name).filter(|p| p.name != name) {
            if !found.iter().any(|(n, _)| *n == name) {
                found.push((name, settings::get(&config, parameter)));
            }
            continue;
        }
        for parameter in PARAMETERS {
            if glob::matches(pattern, parameter.name.as_bytes(), true) && !found.iter().any(|(n, _)| n == parameter.name) {
                found.push((parameter.name.to_string(), settings::get(&config, parameter)));
            }
        }
    }
    ctx.reply.map(found.len());
    for (name, value) in found {
        ctx.reply.bulk(name.as_bytes());
        ctx.reply.bulk(value.as_bytes());
    }
    Ok(())
}
