//! CLIENT HELP

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

const LINES: &[&str] = &[
    "CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "GETNAME",
    "    Return the name of the current connection.",
    "ID",
    "    Return the ID of the current connection.",
    "INFO",
    "    Return information about the current client connection.",
    "LIST [options ...]",
    "    Return information about client connections. Options:",
    "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
    "      Return clients of specified type.",
    "    * ID <client-id> [<client-id> ...]",
    "      Return clients of specified IDs only.",
    "SETNAME <name>",
    "    Assign the name <name> to the current connection.",
    "HELP",
    "    Print this help.",
];

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    super::help_reply(ctx, LINES)
}
