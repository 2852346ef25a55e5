//! PUBSUB HELP

use super::Ctx;
use crate::error::CmdResult;
use crate::resp::Args;

const LINES: &[&str] = &[
    "PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "CHANNELS [<pattern>]",
    "    Return the currently active channels matching a <pattern> (default: '*').",
    "NUMPAT",
    "    Return number of subscriptions to patterns.",
    "NUMSUB [<channel> ...]",
    "    Return the number of subscribers for the specified channels, excluding",
    "    pattern subscriptions(default: no channels).",
    "HELP",
    "    Print this help.",
];

pub fn run(ctx: &mut Ctx<'_>, _args: Args<'_>) -> CmdResult {
    super::help_reply(ctx, LINES)
}
