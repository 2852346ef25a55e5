//! BACKUP SEGMENTS: every log segment a backup may read, oldest first, each
//! `[id, bytes, first-lsn, last-lsn, first-time-ms, last-time-ms, sealed, archived]` as
//! name/value pairs (`backup::segment_reply`). `bytes` is what BACKUP READ may read: all of a
//! sealed segment, the durable prefix of the active one (`sealed` 0).

use super::backup::segment_reply;
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    let segments = ctx.shared.db.backup_segments();
    ctx.reply.array(segments.len());
    for s in &segments {
        segment_reply(ctx, s);
    }
    Ok(())
}
