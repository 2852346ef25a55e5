//! CONFIG GET parameter [parameter ...]: glob patterns; a map of name to value.

use super::Ctx;
use crate::error::CmdResult;
use crate::glob;
use crate::resp::Args;
use crate::settings::{self, PARAMETERS};

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let config = ctx.shared.config();
    let mut found: Vec<(String, String)> = Vec::new();
    for pattern in args.tail(2).iter() {
        let text = String::from_utf8_lossy(pattern);
        // An alias spelled out exactly answers under the name asked for.
        if let Some(canonical) = settings::canonical(&text) {
            if !PARAMETERS.contains(&text.to_ascii_lowercase().as_str()) {
                let name = text.to_ascii_lowercase();
                if !found.iter().any(|(n, _)| *n == name) {
                    found.push((name, settings::get(&config, canonical)));
                }
                continue;
            }
        }
        for name in PARAMETERS.iter().chain(crate::encoding::PARAMETERS) {
            if glob::matches(pattern, name.as_bytes(), true) && !found.iter().any(|(n, _)| n == name) {
                found.push((name.to_string(), settings::get(&config, name)));
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
