//! SCRIPT KILL: stops the running script, unless it has written already. Runs while a script
//! is busy (it does not wait for the run lock).

use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use std::sync::atomic::Ordering::Relaxed;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    let scripts = &ctx.shared.scripts;
    if !scripts.running() {
        return Err(CmdError::msg("NOTBUSY No scripts in execution right now."));
    }
    if scripts.wrote.load(Relaxed) {
        return Err(CmdError::msg(
            "UNKILLABLE Sorry the script already executed write commands against the dataset. You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command.",
        ));
    }
    scripts.kill.store(true, Relaxed);
    ctx.reply.ok();
    Ok(())
}
