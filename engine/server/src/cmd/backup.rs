//! BACKUP: the container of the commands a control plane pulls backups with (issue 44), their
//! table rows, and what they share. Refused to every user outside `basalt:` on every server
//! (`platform_commands.rs`). The storage side is `basalt_storage`'s `archive.rs`.

use super::{arg_i64, Ctx};
use crate::error::CmdError;
use crate::table::acl::{ADMIN as A_ADMIN, DANGEROUS, SLOW};
use crate::table::flag::{ADMIN, LOADING, NOSCRIPT, STALE};
use crate::table::CommandSpec;
use basalt_storage::SegmentInfo;

const fn sub(name: &'static str, arity: i32, summary: &'static str, handler: super::Handler) -> CommandSpec {
    CommandSpec {
        name,
        arity,
        flags: ADMIN | NOSCRIPT | LOADING | STALE,
        first_key: 0,
        last_key: 0,
        key_step: 0,
        acl: A_ADMIN | SLOW | DANGEROUS,
        group: "server",
        since: "7.0.0",
        summary,
        handler: Some(handler),
        subcommands: &[],
    }
}

pub const BACKUP_SUBCOMMANDS: &[CommandSpec] = &[
    sub("archived", 3, "Records that a sealed log segment is archived, so compaction may remove it.", super::backup_archived::run),
    sub("base", 2, "Makes the log durable and lists the segments of a consistent base backup.", super::backup_base::run),
    sub("help", 2, "Returns helpful text about the different subcommands.", super::backup_help::run),
    sub("read", 5, "Reads bytes of a log segment, sealed with the backup key if there is one.", super::backup_read::run),
    sub("segments", 2, "Lists the log segments a backup may read.", super::backup_segments::run),
];

/// The row of `BACKUP` itself in the command table.
pub const BACKUP_COMMAND: CommandSpec =
    crate::table::container("backup", -2, 0, SLOW, "server", "7.0.0", "A container for the platform's backup commands.", BACKUP_SUBCOMMANDS);

/// A segment id argument: 1 to 2^32-1.
pub fn segment_id(arg: &[u8]) -> Result<u32, CmdError> {
    let id = arg_i64(arg)?;
    u32::try_from(id).ok().filter(|&id| id > 0).ok_or_else(|| CmdError::msg("ERR segment id must be between 1 and 4294967295"))
}

/// One segment as BACKUP SEGMENTS and BACKUP BASE list it: a flat array of names and values.
pub fn segment_reply(ctx: &mut Ctx<'_>, s: &SegmentInfo) {
    let fields: [(&str, i64); 8] = [
        ("id", s.id as i64),
        ("bytes", s.bytes as i64),
        ("first-lsn", s.first_lsn as i64),
        ("last-lsn", s.last_lsn as i64),
        ("first-time-ms", s.first_time_ms as i64),
        ("last-time-ms", s.last_time_ms as i64),
        ("sealed", i64::from(s.sealed)),
        ("archived", i64::from(s.archived)),
    ];
    ctx.reply.array(fields.len() * 2);
    for (name, value) in fields {
        ctx.reply.bulk(name.as_bytes());
        ctx.reply.int(value);
    }
}

/// A storage refusal (bad id, offset, order) as the `-ERR` it is.
pub fn refused(e: basalt_storage::StorageError) -> CmdError {
    match e {
        basalt_storage::StorageError::InvalidOptions(why) => CmdError::msg(format!("ERR {why}")),
        other => CmdError::Storage(other),
    }
}
