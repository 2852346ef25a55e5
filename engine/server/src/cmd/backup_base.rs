//! BACKUP BASE: makes everything appended so far durable and answers
//! `[end-lsn, N, end-time-ms, T, segments, [segment...]]`: the segments (as BACKUP SEGMENTS
//! lists them) that, replayed in order, rebuild the data as it was at LSN N, time T. Segments
//! never change once sealed and compaction writes live data into new ones, so a base shares
//! every segment still live with the one before it: only the new ones need uploading.

use super::backup::segment_reply;
use super::Ctx;
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    let db = &ctx.shared.db;
    let base = crate::multi::blocking(|| db.take_base()).map_err(CmdError::Storage)?;
    ctx.reply.array(6);
    ctx.reply.bulk(b"end-lsn");
    ctx.reply.int(base.end_lsn as i64);
    ctx.reply.bulk(b"end-time-ms");
    ctx.reply.int(base.end_time_ms as i64);
    ctx.reply.bulk(b"segments");
    ctx.reply.array(base.segments.len());
    for s in &base.segments {
        segment_reply(ctx, s);
    }
    Ok(())
}
