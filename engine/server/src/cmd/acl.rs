//! ACL: the container of the user-management subcommands (Redis 7 `ACL ...`), their table
//! rows, and what they share: reaching the server's users.

use super::Ctx;
use crate::acl::Acl;
use crate::error::CmdError;
use crate::table::acl::{ADMIN as A_ADMIN, DANGEROUS, SLOW};
use crate::table::flag::{ADMIN, LOADING, NOSCRIPT, STALE};
use crate::table::CommandSpec;

const fn sub(name: &'static str, arity: i32, flags: u32, acl: u32, since: &'static str, summary: &'static str, handler: super::Handler) -> CommandSpec {
    CommandSpec { name, arity, flags, first_key: 0, last_key: 0, key_step: 0, acl, group: "server", since, summary, handler: Some(handler), subcommands: &[] }
}

const MANAGE: u32 = ADMIN | NOSCRIPT | LOADING | STALE;
const MANAGE_ACL: u32 = A_ADMIN | SLOW | DANGEROUS;

pub const ACL_SUBCOMMANDS: &[CommandSpec] = &[
    sub("cat", -2, NOSCRIPT | LOADING | STALE, SLOW, "6.0.0", "Lists the ACL categories, or the commands inside a category.", super::acl_cat::run),
    sub("deluser", -3, MANAGE, MANAGE_ACL, "6.0.0", "Deletes ACL users, and terminates their connections.", super::acl_deluser::run),
    sub("getuser", 3, MANAGE, MANAGE_ACL, "6.0.0", "Lists the ACL rules of a user.", super::acl_getuser::run),
    sub("list", 2, MANAGE, MANAGE_ACL, "6.0.0", "Dumps the effective rules in ACL file format.", super::acl_list::run),
    sub("load", 2, MANAGE, MANAGE_ACL, "6.0.0", "Reloads the rules from the configured ACL file.", super::acl_load::run),
    sub("save", 2, MANAGE, MANAGE_ACL, "6.0.0", "Saves the effective ACL rules in the configured ACL file.", super::acl_save::run),
    sub("setuser", -3, MANAGE, MANAGE_ACL, "6.0.0", "Creates and modifies an ACL user and its rules.", super::acl_setuser::run),
    sub("users", 2, MANAGE, MANAGE_ACL, "6.0.0", "Lists all ACL users.", super::acl_users::run),
    sub("whoami", 2, NOSCRIPT | LOADING | STALE, SLOW, "6.0.0", "Returns the authenticated username of the current connection.", super::acl_whoami::run),
];

/// The row of `ACL` itself in the command table.
pub const ACL_COMMAND: CommandSpec = CommandSpec {
    name: "acl",
    arity: -2,
    flags: 0,
    first_key: 0,
    last_key: 0,
    key_step: 0,
    acl: SLOW,
    group: "server",
    since: "6.0.0",
    summary: "A container for Access List Control commands.",
    handler: None,
    subcommands: ACL_SUBCOMMANDS,
};

/// The server's users, or an error when it runs without them.
pub fn users<'a>(ctx: &Ctx<'a>) -> Result<&'a Acl, CmdError> {
    ctx.shared.auth.acl().ok_or_else(|| CmdError::msg("ERR this server has no user list (ACL is not enabled)"))
}

pub fn text(arg: &[u8]) -> String {
    String::from_utf8_lossy(arg).into_owned()
}
