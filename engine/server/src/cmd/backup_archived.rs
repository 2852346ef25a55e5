//! BACKUP ARCHIVED id: records (durably) that sealed segment `id` is archived; with archiving
//! on, compaction may then remove it. Segments are marked in order: every segment on disk
//! before `id` must be marked first. Marking one already marked answers OK.

use super::backup::{refused, segment_id};
use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let id = segment_id(args.get(2))?;
    let db = &ctx.shared.db;
    crate::multi::blocking(|| db.mark_archived(id)).map_err(refused)?;
    ctx.reply.ok();
    Ok(())
}
