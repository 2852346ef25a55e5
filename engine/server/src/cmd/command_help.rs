//! COMMAND HELP

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

const LINES: &[&str] = &[
    "COMMAND <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "(no subcommand)",
    "    Return details about all commands.",
    "COUNT",
    "    Return the total number of commands in this server.",
    "INFO [<command-name> ...]",
    "    Return details about multiple commands.",
    "    If no command names are given, documentation details for all",
    "    commands are returned.",
    "DOCS [<command-name> ...]",
    "    Return documentation details about multiple commands.",
    "    If no command names are given, documentation details for all",
    "    commands are returned.",
    "HELP",
    "    Print this help.",
];

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    super::help_reply(ctx, LINES)
}
