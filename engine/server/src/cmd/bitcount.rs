//! BITCOUNT key [start end [BYTE|BIT]]: the number of set bits of the string, or of a range
//! of it (bytes unless BIT); 0 for a missing key (checked before the range, as Redis 7.0).

use super::bitrange::{bit_at, bound, resolve, unit, Unit};
use super::util::as_str;
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let count = ctx.db().read(args.get(1), |entry| -> Result<u64, CmdError> {
        let Some(entry) = entry else { return Ok(0) };
        let s = as_str(entry)?;
        let (first, last) = match args.len() {
            2 => match resolve(0, -1, Unit::Byte, s.len()) {
                Some(range) => range,
                None => return Ok(0),
            },
            4 | 5 => {
                let (start, end) = (bound(args.get(2))?, bound(args.get(3))?);
                if start < 0 && end < 0 && start > end {
                    return Ok(0);
                }
                let unit = if args.len() == 5 { unit(args.get(4))? } else { Unit::Byte };
                match resolve(start, end, unit, s.len()) {
                    Some(range) => range,
                    None => return Ok(0),
                }
            }
            _ => return Err(CmdError::Syntax),
        };
        Ok(count_ones(s, first, last))
    })??;
    ctx.reply.int(count as i64);
    Ok(())
}

/// Set bits in the inclusive bit range: whole bytes by popcount, the edges bit by bit.
fn count_ones(s: &[u8], first: u64, last: u64) -> u64 {
    let (first_byte, last_byte) = (first.div_ceil(8), (last + 1) / 8);
    if first_byte >= last_byte {
        return (first..=last).filter(|&i| bit_at(s, i)).count() as u64;
    }
    let whole: u64 = s[first_byte as usize..last_byte as usize].iter().map(|b| b.count_ones() as u64).sum();
    let head = (first..first_byte * 8).filter(|&i| bit_at(s, i)).count() as u64;
    let tail = (last_byte * 8..=last).filter(|&i| bit_at(s, i)).count() as u64;
    whole + head + tail
}
