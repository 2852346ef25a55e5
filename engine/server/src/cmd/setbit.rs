//! SETBIT key offset value: sets one bit (bit 0 is the most significant bit of the first
//! byte), growing the string with zero bytes; replies with the bit's old value. Also the
//! offset parsing GETBIT shares.

use super::util::{as_str, put_with_expiry, Expiry};
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::frame::MAX_BULK_LEN;
use crate::resp::number::parse_i64;
use crate::resp::Args;
use basalt_storage::Value;
use bytes::Bytes;

/// A bit offset: 0 up to the largest string's bits, else Redis' error.
pub fn bit_offset(arg: &[u8]) -> Result<u64, CmdError> {
    match parse_i64(arg) {
        Some(n) if n >= 0 && (n as u64) < (MAX_BULK_LEN as u64) * 8 => Ok(n as u64),
        _ => Err(CmdError::msg("ERR bit offset is not an integer or out of range")),
    }
}

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let offset = bit_offset(args.get(2))?;
    let on = match args.get(3) {
        b"1" => true,
        b"0" => false,
        _ => return Err(CmdError::msg("ERR bit is not an integer or out of range")),
    };
    let (byte, mask) = ((offset / 8) as usize, 0x80u8 >> (offset % 8));
    let (old, lsn) = ctx.db().update(args.get(1), |slot| -> Result<bool, CmdError> {
        let mut s = match slot.get() {
            Some(e) => as_str(e)?.to_vec(),
            None => Vec::new(),
        };
        if s.len() <= byte {
            s.resize(byte + 1, 0);
        }
        let old = s[byte] & mask != 0;
        if on {
            s[byte] |= mask;
        } else {
            s[byte] &= !mask;
        }
        put_with_expiry(slot, Value::Str(Bytes::from(s)), Expiry::Keep);
        Ok(old)
    })?;
    ctx.wrote(lsn);
    ctx.reply.int(old? as i64);
    Ok(())
}
