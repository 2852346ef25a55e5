//! BACKUP HELP

use super::{help_reply, Ctx};
use crate::error::CmdResult;
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    help_reply(
        ctx,
        &[
            "BACKUP <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "SEGMENTS",
            "    List the log segments a backup may read (id, bytes, LSNs, times, sealed, archived).",
            "READ <id> <offset> <count>",
            "    Read up to <count> (at most 8388608) bytes of segment <id> from <offset>.",
            "ARCHIVED <id>",
            "    Record that sealed segment <id> (and every one before it) is archived.",
            "BASE",
            "    Make the log durable and list the segments of a consistent base backup.",
            "HELP",
            "    Print this help.",
        ],
    )
}
