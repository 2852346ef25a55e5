//! GETBIT key offset: the bit at `offset` (0 past the end or for a missing key).

use super::setbit::bit_offset;
use super::util::as_str;
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let offset = bit_offset(args.get(2))?;
    let (byte, mask) = ((offset / 8) as usize, 0x80u8 >> (offset % 8));
    let bit = ctx.db().read(args.get(1), |entry| -> Result<bool, CmdError> {
        Ok(match entry {
            None => false,
            Some(e) => as_str(e)?.get(byte).is_some_and(|b| b & mask != 0),
        })
    })??;
    ctx.reply.int(bit as i64);
    Ok(())
}
