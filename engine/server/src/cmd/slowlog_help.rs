//! SLOWLOG HELP

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

const LINES: &[&str] = &[
    "SLOWLOG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "GET [<count>]",
    "    Return top <count> entries from the slowlog (default: 10, -1 mean all).",
    "    Entries are made of:",
    "    id, timestamp, time in microseconds, arguments array, client IP and port,",
    "    client name",
    "LEN",
    "    Return the length of the slowlog.",
    "RESET",
    "    Reset the slowlog.",
    "HELP",
    "    Print this help.",
];

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    super::help_reply(ctx, LINES)
}
