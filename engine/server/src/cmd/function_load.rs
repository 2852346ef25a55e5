//! FUNCTION LOAD [REPLACE] code: adds (or with REPLACE, replaces) a library; replies with its
//! name. The code is checked by running it here first.

use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use crate::scripting::{library, Library};
use std::sync::atomic::Ordering::Relaxed;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (replace, code) = match args.len() {
        3 => (false, args.get(2)),
        4 if is(args.get(2), "replace") => (true, args.get(3)),
        _ => return Err(CmdError::Syntax),
    };
    let code = String::from_utf8_lossy(code).into_owned();
    let (name, body) = library::parse(&code)?;
    let registered = crate::scripting::vm::with_lua(ctx, |lua| library::register(lua, &body))?;
    let functions: Vec<String> = registered.into_iter().map(|(f, _, _)| f).collect();
    let scripts = &ctx.shared.scripts;
    {
        let mut libraries = scripts.libraries.lock().unwrap_or_else(|e| e.into_inner());
        if libraries.contains_key(&name) && !replace {
            return Err(CmdError::msg(format!("ERR Library '{name}' already exists")));
        }
        for (other, lib) in libraries.iter() {
            if *other != name {
                if let Some(taken) = functions.iter().find(|f| lib.functions.contains(f)) {
                    return Err(CmdError::msg(format!("ERR Function {taken} already exists")));
                }
            }
        }
        libraries.insert(name.clone(), Library { code: body, functions });
    }
    scripts.library_generation.fetch_add(1, Relaxed);
    ctx.reply.bulk(name.as_bytes());
    Ok(())
}
