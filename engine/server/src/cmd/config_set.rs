//! CONFIG SET parameter value [parameter value ...]: every name is checked before any value
//! is applied; which parameters change at run time, and how, is `settings.rs`' table.

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use crate::settings;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    if args.len() % 2 == 1 {
        return Err(CmdError::WrongArgs("config|set"));
    }
    let mut pairs = Vec::new();
    for i in (2..args.len()).step_by(2) {
        let name = String::from_utf8_lossy(args.get(i)).into_owned();
        let Some(parameter) = settings::find(&name) else {
            return Err(CmdError::msg(format!("ERR Unknown option or number of arguments for CONFIG SET - '{name}'")));
        };
        pairs.push((parameter, String::from_utf8_lossy(args.get(i + 1)).into_owned()));
    }
    for (parameter, value) in pairs {
        settings::set(ctx.shared, parameter, &value).map_err(CmdError::Other)?;
    }
    ctx.reply.ok();
    Ok(())
}
