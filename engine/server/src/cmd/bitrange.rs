//! The optional `start end [BYTE|BIT]` range of BITCOUNT and BITPOS, resolved as Redis 7.0
//! does (negative indexes from the end, clamped) into an inclusive range of bit positions.

use super::{arg_i64, is};
use crate::error::CmdError;

/// How a range argument counts.
#[derive(Clone, Copy, PartialEq)]
pub enum Unit {
    Byte,
    Bit,
}

/// `BYTE` or `BIT`, else a syntax error.
pub fn unit(arg: &[u8]) -> Result<Unit, CmdError> {
    if is(arg, "bit") {
        Ok(Unit::Bit)
    } else if is(arg, "byte") {
        Ok(Unit::Byte)
    } else {
        Err(CmdError::Syntax)
    }
}

/// The inclusive bit range `[first, last]` of `start..=end` (in `unit`) over a string of `len`
/// bytes, or None when empty.
pub fn resolve(start: i64, end: i64, unit: Unit, len: usize) -> Option<(u64, u64)> {
    let total = if unit == Unit::Bit { len as i64 * 8 } else { len as i64 };
    let start = if start < 0 { (total + start).max(0) } else { start };
    let end = if end < 0 { (total + end).max(0) } else { end };
    let end = end.min(total - 1);
    if start > end {
        return None;
    }
    Some(match unit {
        Unit::Bit => (start as u64, end as u64),
        Unit::Byte => (start as u64 * 8, end as u64 * 8 + 7),
    })
}

/// A range bound argument: an integer, else Redis' error.
pub fn bound(arg: &[u8]) -> Result<i64, CmdError> {
    arg_i64(arg)
}

/// The bit at position `i` (bit 0 is the most significant bit of the first byte).
pub fn bit_at(s: &[u8], i: u64) -> bool {
    s[(i / 8) as usize] & (0x80 >> (i % 8)) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_as_redis() {
        assert_eq!(resolve(0, -1, Unit::Byte, 3), Some((0, 23)));
        assert_eq!(resolve(1, 1, Unit::Byte, 3), Some((8, 15)));
        assert_eq!(resolve(-2, -1, Unit::Bit, 1), Some((6, 7)));
        assert_eq!(resolve(5, 100, Unit::Bit, 1), Some((5, 7)));
        assert_eq!(resolve(2, 1, Unit::Byte, 3), None);
        assert_eq!(resolve(0, -1, Unit::Byte, 0), None);
        assert_eq!(resolve(-100, -50, Unit::Byte, 3), Some((0, 7)));
    }
}
