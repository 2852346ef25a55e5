//! BACKUP READ id offset count: up to `count` bytes (at most 8 MiB) of segment `id` from
//! `offset`, within the bytes BACKUP SEGMENTS lists; fewer at its end, none past it. With a
//! backup key (`--backup-key-file`) the bulk string is `nonce (12) | AES-256-GCM ciphertext |
//! tag (16)` with associated data `basalt-backup-v1` + id (u32 LE) + offset (u64 LE), so a
//! piece opens only as the bytes at that place of that segment: the log leaves the node sealed.

use super::backup::{refused, segment_id};
use super::{arg_i64, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;
use basalt_storage::MAX_READ;

/// What the associated data of a sealed piece starts with.
pub const AAD_PREFIX: &[u8] = b"basalt-backup-v1";

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let id = segment_id(args.get(2))?;
    let offset = arg_i64(args.get(3))?;
    let offset = u64::try_from(offset).map_err(|_| CmdError::msg("ERR offset must not be negative"))?;
    let count = arg_i64(args.get(4))?;
    let count = usize::try_from(count).ok().filter(|&c| c <= MAX_READ);
    let count = count.ok_or_else(|| CmdError::msg(format!("ERR count must be between 0 and {MAX_READ}")))?;
    let db = &ctx.shared.db;
    let mut buf = vec![0u8; count];
    let n = crate::multi::blocking(|| db.read_segment(id, offset, &mut buf)).map_err(refused)?;
    buf.truncate(n);
    match &ctx.shared.backup_cipher {
        None => ctx.reply.bulk(&buf),
        Some(cipher) => {
            let mut aad = AAD_PREFIX.to_vec();
            aad.extend_from_slice(&id.to_le_bytes());
            aad.extend_from_slice(&offset.to_le_bytes());
            let mut sealed = Vec::with_capacity(n + basalt_storage::SEAL_OVERHEAD);
            cipher.seal(&aad, &buf, &mut sealed);
            ctx.reply.bulk(&sealed);
        }
    }
    Ok(())
}
