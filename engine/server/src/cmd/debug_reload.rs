//! DEBUG RELOAD: Redis saves an RDB and loads it back, so what a restart would read is what
//! is in memory. Basalt's data is its log, which every write is in before it is acknowledged:
//! this waits until the log is on disk (what a restart replays) and answers OK. It does not
//! restart the server; `server/tests/*restart*.rs` show restarts read the same data back.
//! DEBUG LOADAOF (Redis: flush the AOF and load it back) is the same here: the log is the AOF.

use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    // Redis' options only shape its RDB round trip; there is none here to shape.
    if !args.tail(2).iter().all(|a| is(a, "merge") || is(a, "noflush") || is(a, "nosave")) {
        return Err(CmdError::msg("ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options."));
    }
    let db = &ctx.shared.db;
    crate::multi::blocking(|| db.sync())?;
    ctx.reply.ok();
    Ok(())
}
