//! BITPOS key bit [start [end [BYTE|BIT]]]: the position of the first bit set to `bit` in the
//! string (or a range of it). A missing key is all zeros (0 for bit 0, -1 for bit 1). Looking
//! for a 0 without an end given, the first position past the string counts (its zero padding);
//! with an end given, -1 when the range holds none.

use super::bitrange::{bit_at, bound, resolve, unit, Unit};
use super::util::as_str;
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let bit = match super::arg_i64(args.get(2))? {
        0 => false,
        1 => true,
        _ => return Err(CmdError::msg("ERR The bit argument must be 1 or 0.")),
    };
    let pos = ctx.db().read(args.get(1), |entry| -> Result<i64, CmdError> {
        let Some(entry) = entry else { return Ok(if bit { -1 } else { 0 }) };
        let s = as_str(entry)?;
        if args.len() > 6 {
            return Err(CmdError::Syntax);
        }
        let start = if args.len() >= 4 { bound(args.get(3))? } else { 0 };
        let unit = if args.len() == 6 { unit(args.get(5))? } else { Unit::Byte };
        let end_given = args.len() >= 5;
        let end = if end_given { bound(args.get(4))? } else { -1 };
        let Some((first, last)) = resolve(start, end, unit, s.len()) else { return Ok(-1) };
        Ok(match find(s, first, last, bit) {
            Some(i) => i as i64,
            None if !bit && !end_given => last as i64 + 1,
            None => -1,
        })
    })??;
    ctx.reply.int(pos);
    Ok(())
}

/// The first position in the inclusive bit range holding `bit`: whole bytes are skipped while
/// they cannot hold it.
fn find(s: &[u8], first: u64, last: u64, bit: bool) -> Option<u64> {
    let skip = if bit { 0x00 } else { 0xff };
    let mut i = first;
    while i <= last {
        if i.is_multiple_of(8) && i + 7 <= last && s[(i / 8) as usize] == skip {
            i += 8;
            continue;
        }
        if bit_at(s, i) == bit {
            return Some(i);
        }
        i += 1;
    }
    None
}
