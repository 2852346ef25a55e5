//! RESTORE key ttl serialized-value [REPLACE] [ABSTTL]: creates a key from a DUMP payload, with
//! a TTL in milliseconds (0: none; with ABSTTL a unix-ms time). The payload's version and
//! checksum are checked, then its value decoded completely, before anything changes; a bad
//! payload answers an error. Errors in Redis 7.0's order: syntax, BUSYKEY, TTL, payload.
//! IDLETIME and FREQ are refused: Basalt's access clock is its own and not settable.

use super::util::{put_with_expiry, Expiry};
use super::{arg_i64, is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::DumpError;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let (mut replace, mut absttl) = (false, false);
    for j in 4..args.len() {
        let opt = args.get(j);
        if is(opt, "replace") {
            replace = true;
        } else if is(opt, "absttl") {
            absttl = true;
        } else if (is(opt, "idletime") || is(opt, "freq")) && j + 1 < args.len() {
            return Err(CmdError::msg("ERR RESTORE IDLETIME and FREQ are not supported"));
        } else {
            return Err(CmdError::Syntax);
        }
    }
    let ttl = arg_i64(args.get(2));
    let value = basalt_storage::restore(args.get(3));
    let (done, lsn) = ctx.db().update(args.get(1), |slot| -> CmdResult {
        if !replace && slot.get().is_some() {
            return Err(CmdError::msg("BUSYKEY Target key name already exists."));
        }
        let ttl = ttl?;
        if ttl < 0 {
            return Err(CmdError::msg("ERR Invalid TTL value, must be >= 0"));
        }
        let value = value.map_err(|e| match e {
            DumpError::VersionOrChecksum => CmdError::msg("ERR DUMP payload version or checksum are wrong"),
            DumpError::BadData => CmdError::msg("ERR Bad data format"),
        })?;
        let expiry = match ttl {
            0 => Expiry::Clear,
            at if absttl => Expiry::At(at),
            ms => Expiry::At(ms.checked_add(slot.now_ms() as i64).ok_or(CmdError::msg("ERR Invalid TTL value, must be >= 0"))?),
        };
        // A time already past leaves no key (and removes the replaced one), as in Redis.
        put_with_expiry(slot, value, expiry);
        Ok(())
    })?;
    ctx.wrote(lsn);
    done?;
    ctx.reply.ok();
    Ok(())
}
