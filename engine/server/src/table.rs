//! The one static command table: name, arity, flags, key positions, ACL categories and the
//! handler of every command. It drives arity checks, `COMMAND`, `INFO commandstats`, ACL
//! categories (issue 3) and which commands touch the log (`WRITE`).
//!
//! Arity follows Redis: `n > 0` means exactly n arguments (the name included), `-n` at least n.

use crate::cmd::{self, Handler};

pub mod flag {
    pub const WRITE: u32 = 1 << 0;
    pub const READONLY: u32 = 1 << 1;
    pub const DENYOOM: u32 = 1 << 2;
    pub const ADMIN: u32 = 1 << 3;
    pub const NOSCRIPT: u32 = 1 << 4;
    pub const LOADING: u32 = 1 << 5;
    pub const STALE: u32 = 1 << 6;
    pub const FAST: u32 = 1 << 7;
    pub const NO_AUTH: u32 = 1 << 8;
    pub const ALLOW_BUSY: u32 = 1 << 9;
    /// Basalt's own, not shown by `COMMAND`: the command takes the run lock for itself to run
    /// alone (EXEC, EVAL), so dispatch does not take its shared side first.
    pub const EXCLUSIVE: u32 = 1 << 16;
    /// Basalt's own, not shown by `COMMAND`: the command reads keys only through
    /// `Keyspace::read`, which notes the LSN of what it saw (`basalt_storage::seen`), so its
    /// reply waits for that to be durable, not for the log's end.
    pub const EXACT_READS: u32 = 1 << 17;
    pub const PUBSUB: u32 = 1 << 10;
    pub const BLOCKING: u32 = 1 << 11;
    /// The keys are found from the arguments (a numkeys count), not by first/last/step:
    /// `cmd::movable_keys` finds them.
    pub const MOVABLEKEYS: u32 = 1 << 12;
    /// Refused inside MULTI (Redis' `no-multi`: SHUTDOWN, PSYNC): "Command not allowed inside
    /// a transaction", and the transaction is flagged so that EXEC answers EXECABORT.
    pub const NO_MULTI: u32 = 1 << 13;

    /// Names as `COMMAND INFO` prints them.
    pub const NAMES: &[(u32, &str)] = &[
        (WRITE, "write"),
        (READONLY, "readonly"),
        (DENYOOM, "denyoom"),
        (ADMIN, "admin"),
        (NOSCRIPT, "noscript"),
        (LOADING, "loading"),
        (STALE, "stale"),
        (FAST, "fast"),
        (NO_AUTH, "no_auth"),
        (ALLOW_BUSY, "allow_busy"),
        (PUBSUB, "pubsub"),
        (BLOCKING, "blocking"),
        (MOVABLEKEYS, "movablekeys"),
        (NO_MULTI, "no_multi"),
    ];
}

pub mod acl {
    pub const KEYSPACE: u32 = 1 << 0;
    pub const READ: u32 = 1 << 1;
    pub const WRITE: u32 = 1 << 2;
    pub const STRING: u32 = 1 << 3;
    pub const HASH: u32 = 1 << 4;
    pub const LIST: u32 = 1 << 5;
    pub const SET: u32 = 1 << 6;
    pub const SORTEDSET: u32 = 1 << 7;
    pub const FAST: u32 = 1 << 8;
    pub const SLOW: u32 = 1 << 9;
    pub const ADMIN: u32 = 1 << 10;
    pub const DANGEROUS: u32 = 1 << 11;
    pub const CONNECTION: u32 = 1 << 12;
    pub const TRANSACTION: u32 = 1 << 13;
    pub const PUBSUB: u32 = 1 << 14;
    pub const SCRIPTING: u32 = 1 << 15;
    pub const BLOCKING: u32 = 1 << 16;
    pub const BITMAP: u32 = 1 << 17;
    pub const STREAM: u32 = 1 << 18;

    /// Names as `COMMAND INFO` and `ACL CAT` print them.
    pub const NAMES: &[(u32, &str)] = &[
        (KEYSPACE, "@keyspace"),
        (READ, "@read"),
        (WRITE, "@write"),
        (STRING, "@string"),
        (HASH, "@hash"),
        (LIST, "@list"),
        (SET, "@set"),
        (SORTEDSET, "@sortedset"),
        (FAST, "@fast"),
        (SLOW, "@slow"),
        (ADMIN, "@admin"),
        (DANGEROUS, "@dangerous"),
        (CONNECTION, "@connection"),
        (TRANSACTION, "@transaction"),
        (PUBSUB, "@pubsub"),
        (SCRIPTING, "@scripting"),
        (BLOCKING, "@blocking"),
        (BITMAP, "@bitmap"),
        (STREAM, "@stream"),
    ];
}

/// One command (or one subcommand of a container such as `CLIENT`).
pub struct CommandSpec {
    /// Lowercase name; subcommands carry only their own part (`setname`).
    pub name: &'static str,
    pub arity: i32,
    pub flags: u32,
    pub first_key: i32,
    pub last_key: i32,
    pub key_step: i32,
    pub acl: u32,
    pub group: &'static str,
    pub since: &'static str,
    pub summary: &'static str,
    /// None for a container, whose subcommands do the work.
    pub handler: Option<Handler>,
    pub subcommands: &'static [CommandSpec],
}

impl CommandSpec {
    pub fn is_write(&self) -> bool {
        self.flags & flag::WRITE != 0
    }

    /// Whether `argc` arguments (name included) satisfy the arity.
    pub fn arity_ok(&self, argc: usize) -> bool {
        let argc = argc as i64;
        let arity = self.arity as i64;
        if arity >= 0 {
            argc == arity
        } else {
            argc >= -arity
        }
    }
}

use acl::{
    ADMIN as A_ADMIN, CONNECTION, DANGEROUS, FAST as A_FAST, HASH, KEYSPACE, LIST, READ, SET as A_SET, SLOW,
    SORTEDSET, STRING, TRANSACTION, WRITE as A_WRITE, PUBSUB as A_PUBSUB, SCRIPTING, BLOCKING as A_BLOCKING, BITMAP,
    STREAM as A_STREAM,
};
use flag::{ADMIN, ALLOW_BUSY, DENYOOM, EXACT_READS, EXCLUSIVE, FAST, LOADING, MOVABLEKEYS, NOSCRIPT, NO_AUTH, NO_MULTI, READONLY, STALE, WRITE};
/// SUBSCRIBE and its kin.
const SUB: u32 = flag::PUBSUB | NOSCRIPT | LOADING | STALE;
/// MULTI, DISCARD, WATCH, UNWATCH.
const TX_FAST: u32 = NOSCRIPT | LOADING | STALE | FAST | ALLOW_BUSY;

/// Shorthand for a table row.
#[allow(clippy::too_many_arguments)]
const fn c(
    name: &'static str,
    arity: i32,
    flags: u32,
    keys: (i32, i32, i32),
    acl: u32,
    group: &'static str,
    since: &'static str,
    summary: &'static str,
    handler: Handler,
) -> CommandSpec {
    CommandSpec {
        name,
        arity,
        flags,
        first_key: keys.0,
        last_key: keys.1,
        key_step: keys.2,
        acl,
        group,
        since,
        summary,
        handler: Some(handler),
        subcommands: &[],
    }
}

const NOKEY: (i32, i32, i32) = (0, 0, 0);
const KEY1: (i32, i32, i32) = (1, 1, 1);
const ALLKEYS: (i32, i32, i32) = (1, -1, 1);
const CONN: u32 = LOADING | STALE | FAST;
const CONN_NOAUTH: u32 = NOSCRIPT | LOADING | STALE | FAST | NO_AUTH | ALLOW_BUSY;

const R_FAST: u32 = READ | A_FAST;
const W_FAST: u32 = A_WRITE | A_FAST;

const CLIENT_SUBCOMMANDS: &[CommandSpec] = &[
    c("getname", 2, NOSCRIPT | LOADING | STALE, NOKEY, CONNECTION | SLOW, "connection", "2.6.9", "Returns the name of the connection.", cmd::client_getname::run),
    c("help", 2, LOADING | STALE, NOKEY, CONNECTION | SLOW, "connection", "5.0.0", "Returns helpful text about the different subcommands.", cmd::client_help::run),
    c("id", 2, NOSCRIPT | LOADING | STALE, NOKEY, CONNECTION | SLOW, "connection", "5.0.0", "Returns the unique client ID of the connection.", cmd::client_id::run),
    c("info", 2, NOSCRIPT | LOADING | STALE, NOKEY, CONNECTION | SLOW, "connection", "6.2.0", "Returns information about the connection.", cmd::client_info::run),
    c("kill", -3, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS | CONNECTION, "connection", "2.4.0", "Terminates open connections.", cmd::client_kill::run),
    c("list", -2, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS | CONNECTION, "connection", "2.4.0", "Lists open connections.", cmd::client_list::run),
    c("no-evict", 3, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS | CONNECTION, "connection", "7.0.0", "Sets the client eviction mode of the connection.", cmd::client_no_evict::run),
    c("reply", 3, NOSCRIPT | LOADING | STALE, NOKEY, CONNECTION | SLOW, "connection", "3.2.0", "Instructs the server whether to reply to commands.", cmd::client_reply::run),
    c("setname", 3, NOSCRIPT | LOADING | STALE, NOKEY, CONNECTION | SLOW, "connection", "2.6.9", "Sets the connection name.", cmd::client_setname::run),
    c("unblock", -3, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS | CONNECTION, "connection", "5.0.0", "Unblocks a client blocked by a blocking command from a different connection.", cmd::client_unblock::run),
];

const COMMAND_SUBCOMMANDS: &[CommandSpec] = &[
    c("count", 2, LOADING | STALE, NOKEY, CONNECTION | SLOW, "server", "2.8.13", "Returns a count of commands.", cmd::command_count::run),
    c("docs", -2, LOADING | STALE, NOKEY, CONNECTION | SLOW, "server", "7.0.0", "Returns documentary information about one, multiple or all commands.", cmd::command_docs::run),
    c("help", 2, LOADING | STALE, NOKEY, CONNECTION | SLOW, "server", "5.0.0", "Returns helpful text about the different subcommands.", cmd::command_help::run),
    c("info", -2, LOADING | STALE, NOKEY, CONNECTION | SLOW, "server", "2.8.13", "Returns information about one, multiple or all commands.", cmd::command_info::run),
];

const CONFIG_SUBCOMMANDS: &[CommandSpec] = &[
    c("get", -3, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "2.0.0", "Returns the effective values of configuration parameters.", cmd::config_get::run),
    c("help", 2, LOADING | STALE, NOKEY, SLOW, "server", "5.0.0", "Returns helpful text about the different subcommands.", cmd::config_help::run),
    c("resetstat", 2, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "2.0.0", "Resets the server's statistics.", cmd::config_resetstat::run),
    c("set", -4, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "2.0.0", "Sets configuration parameters in-flight.", cmd::config_set::run),
];

const PUBSUB_SUBCOMMANDS: &[CommandSpec] = &[
    c("channels", -2, flag::PUBSUB | LOADING | STALE, NOKEY, A_PUBSUB | SLOW, "pubsub", "2.8.0", "Returns the active channels.", cmd::pubsub_channels::run),
    c("help", 2, LOADING | STALE, NOKEY, SLOW, "pubsub", "6.2.0", "Returns helpful text about the different subcommands.", cmd::pubsub_help::run),
    c("numpat", 2, flag::PUBSUB | LOADING | STALE, NOKEY, A_PUBSUB | SLOW, "pubsub", "2.8.0", "Returns a count of unique pattern subscriptions.", cmd::pubsub_numpat::run),
    c("numsub", -2, flag::PUBSUB | LOADING | STALE, NOKEY, A_PUBSUB | SLOW, "pubsub", "2.8.0", "Returns a count of subscribers to channels.", cmd::pubsub_numsub::run),
];

const SCRIPT_SUBCOMMANDS: &[CommandSpec] = &[
    c("exists", -3, NOSCRIPT, NOKEY, SLOW | SCRIPTING, "scripting", "2.6.0", "Determines whether server-side Lua scripts exist in the script cache.", cmd::script_exists::run),
    c("flush", -2, NOSCRIPT, NOKEY, SLOW | SCRIPTING, "scripting", "2.6.0", "Removes all server-side Lua scripts from the script cache.", cmd::script_flush::run),
    c("help", 2, LOADING | STALE, NOKEY, SLOW | SCRIPTING, "scripting", "5.0.0", "Returns helpful text about the different subcommands.", cmd::script_help::run),
    c("kill", 2, NOSCRIPT | ALLOW_BUSY, NOKEY, SLOW | SCRIPTING, "scripting", "2.6.0", "Terminates a server-side Lua script during execution.", cmd::script_kill::run),
    c("load", 3, NOSCRIPT | STALE, NOKEY, SLOW | SCRIPTING, "scripting", "2.6.0", "Loads a server-side Lua script to the script cache.", cmd::script_load::run),
];

const FUNCTION_SUBCOMMANDS: &[CommandSpec] = &[
    c("delete", 3, NOSCRIPT | WRITE, NOKEY, A_WRITE | SLOW | SCRIPTING, "scripting", "7.0.0", "Deletes a library and its functions.", cmd::function_delete::run),
    c("flush", -2, NOSCRIPT | WRITE, NOKEY, A_WRITE | SLOW | SCRIPTING, "scripting", "7.0.0", "Deletes all libraries and functions.", cmd::function_flush::run),
    c("kill", 2, NOSCRIPT | ALLOW_BUSY, NOKEY, SLOW | SCRIPTING, "scripting", "7.0.0", "Terminates a function during execution.", cmd::function_kill::run),
    c("load", -3, NOSCRIPT | WRITE | DENYOOM, NOKEY, A_WRITE | SLOW | SCRIPTING, "scripting", "7.0.0", "Creates a library.", cmd::function_load::run),
];

const OBJECT_SUBCOMMANDS: &[CommandSpec] = &[
    c("encoding", 3, READONLY, (2, 2, 1), KEYSPACE | READ | SLOW, "generic", "2.2.3", "Returns the internal encoding of a Redis object.", cmd::object_encoding::run),
    c("freq", 3, READONLY, (2, 2, 1), KEYSPACE | READ | SLOW, "generic", "4.0.0", "Returns the logarithmic access frequency counter of a Redis object.", cmd::object_freq::run),
    c("help", 2, LOADING | STALE, NOKEY, KEYSPACE | SLOW, "generic", "6.2.0", "Returns helpful text about the different subcommands.", cmd::object_help::run),
    c("idletime", 3, READONLY, (2, 2, 1), KEYSPACE | READ | SLOW, "generic", "2.2.3", "Returns the time since the last access to a Redis object.", cmd::object_idletime::run),
    c("refcount", 3, READONLY, (2, 2, 1), KEYSPACE | READ | SLOW, "generic", "2.2.3", "Returns the reference count of a value of a key.", cmd::object_refcount::run),
];

const DEBUG_SUBCOMMANDS: &[CommandSpec] = &[
    c("digest-value", -2, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "1.0.0", "Returns a digest of each key's value.", cmd::debug_digest_value::run),
    c("help", 2, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "1.0.0", "Returns helpful text about the different subcommands.", cmd::debug_help::run),
    c("loadaof", 2, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "1.0.0", "Waits until the log, which a restart replays, is on disk (Redis reloads its AOF).", cmd::debug_reload::run),
    c("log", 3, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "1.0.0", "Writes a message to the server log.", cmd::debug_log::run),
    c("object", 3, ADMIN | NOSCRIPT | LOADING | STALE, (2, 2, 1), A_ADMIN | SLOW | DANGEROUS, "server", "1.0.0", "Shows low-level information about a key.", cmd::debug_object::run),
    c("protocol", 3, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "1.0.0", "Replies with one value of a RESP type.", cmd::debug_protocol::run),
    c("quicklist-packed-threshold", 3, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "1.0.0", "Sets the element size from which Redis gives a list element a node of its own (nothing to set in Basalt).", cmd::debug_quicklist_packed_threshold::run),
    c("reload", -2, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "1.0.0", "Waits until the log, which a restart replays, is on disk.", cmd::debug_reload::run),
    c("set-active-expire", 3, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "1.0.0", "Turns the background expiry of keys off or on.", cmd::debug_set_active_expire::run),
    c("set-disable-deny-scripts", 3, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "1.0.0", "Lets scripts call the commands flagged noscript, or refuses them again.", cmd::debug_set_disable_deny_scripts::run),
    c("sleep", 3, ADMIN | NOSCRIPT | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "1.0.0", "Holds the connection for a number of seconds.", cmd::debug_sleep::run),
];

const SLOWLOG_SUBCOMMANDS: &[CommandSpec] = &[
    c("get", -2, ADMIN | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "2.2.12", "Returns the slow log's entries.", cmd::slowlog_get::run),
    c("help", 2, LOADING | STALE, NOKEY, SLOW, "server", "6.2.0", "Show helpful text about the different subcommands", cmd::slowlog_help::run),
    c("len", 2, ADMIN | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "2.2.12", "Returns the number of entries in the slow log.", cmd::slowlog_len::run),
    c("reset", 2, ADMIN | LOADING | STALE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "2.2.12", "Clears all entries from the slow log.", cmd::slowlog_reset::run),
];

const MEMORY_SUBCOMMANDS: &[CommandSpec] = &[
    c("help", 2, LOADING | STALE, NOKEY, SLOW, "server", "5.0.0", "Returns helpful text about the different subcommands.", cmd::memory_help::run),
    c("usage", -3, READONLY, (2, 2, 1), READ | SLOW, "server", "4.0.0", "Estimates the memory usage of a key.", cmd::memory_usage::run),
];

const XGROUP_SUBCOMMANDS: &[CommandSpec] = &[
    c("create", -5, WRITE | DENYOOM, (2, 2, 1), A_WRITE | A_STREAM | SLOW, "stream", "5.0.0", "Create a consumer group.", cmd::xgroup::run),
    c("createconsumer", 5, WRITE | DENYOOM, (2, 2, 1), A_WRITE | A_STREAM | SLOW, "stream", "6.2.0", "Create a consumer in a consumer group.", cmd::xgroup::run),
    c("delconsumer", 5, WRITE, (2, 2, 1), A_WRITE | A_STREAM | SLOW, "stream", "5.0.0", "Delete a consumer from a consumer group.", cmd::xgroup::run),
    c("destroy", 4, WRITE, (2, 2, 1), A_WRITE | A_STREAM | SLOW, "stream", "5.0.0", "Destroy a consumer group.", cmd::xgroup::run),
    c("help", 2, LOADING | STALE, NOKEY, A_STREAM | SLOW, "stream", "5.0.0", "Show helpful text about the different subcommands", cmd::xgroup::run),
    c("setid", -5, WRITE, (2, 2, 1), A_WRITE | A_STREAM | SLOW, "stream", "5.0.0", "Set a consumer group to an arbitrary last delivered ID value.", cmd::xgroup::run),
];

const XINFO_SUBCOMMANDS: &[CommandSpec] = &[
    c("consumers", 4, READONLY, (2, 2, 1), READ | A_STREAM | SLOW, "stream", "5.0.0", "List the consumers in a consumer group", cmd::xinfo::run),
    c("groups", 3, READONLY, (2, 2, 1), READ | A_STREAM | SLOW, "stream", "5.0.0", "List the consumer groups of a stream", cmd::xinfo::run),
    c("help", 2, LOADING | STALE, NOKEY, A_STREAM | SLOW, "stream", "5.0.0", "Show helpful text about the different subcommands", cmd::xinfo::run),
    c("stream", -3, READONLY, (2, 2, 1), READ | A_STREAM | SLOW, "stream", "5.0.0", "Get information about a stream", cmd::xinfo::run),
];

#[allow(clippy::too_many_arguments)]
/// A container command: no handler of its own, subcommands picked by the second argument.
pub const fn container(name: &'static str, arity: i32, flags: u32, acl: u32, group: &'static str, since: &'static str, summary: &'static str, subcommands: &'static [CommandSpec]) -> CommandSpec {
    CommandSpec { name, arity, flags, first_key: 0, last_key: 0, key_step: 0, acl, group, since, summary, handler: None, subcommands }
}

/// Every command the server knows, sorted by name.
pub static COMMANDS: &[CommandSpec] = &[
    cmd::acl::ACL_COMMAND,
    c("append", 3, WRITE | DENYOOM | FAST, KEY1, W_FAST | STRING, "string", "2.0.0", "Appends a string to the value of a key. Creates the key if it doesn't exist.", cmd::append::run),
    c("auth", -2, CONN_NOAUTH, NOKEY, CONNECTION | A_FAST, "connection", "1.0.0", "Authenticates the connection.", cmd::auth::run),
    cmd::backup::BACKUP_COMMAND,
    c("bitcount", -2, READONLY | EXACT_READS, KEY1, READ | BITMAP | SLOW, "bitmap", "2.6.0", "Counts the number of set bits (population counting) in a string.", cmd::bitcount::run),
    c("bitop", -4, WRITE | DENYOOM, (2, -1, 1), A_WRITE | BITMAP | SLOW, "bitmap", "2.6.0", "Performs bitwise operations on multiple strings, and stores the result.", cmd::bitop::run),
    c("bitpos", -3, READONLY, KEY1, READ | BITMAP | SLOW, "bitmap", "2.8.7", "Finds the first set (1) or clear (0) bit in a string.", cmd::bitpos::run),
    c("blmove", 6, WRITE | DENYOOM | NOSCRIPT | flag::BLOCKING, (1, 2, 1), A_WRITE | LIST | SLOW | A_BLOCKING, "list", "6.2.0", "Pops an element from a list, pushes it to another list and returns it. Blocks until an element is available otherwise. Deletes the list if the last element was moved.", cmd::blmove::run),
    c("blmpop", -5, WRITE | flag::BLOCKING | MOVABLEKEYS, NOKEY, A_WRITE | LIST | SLOW | A_BLOCKING, "list", "7.0.0", "Pops the first element from one of multiple lists. Blocks until an element is available otherwise. Deletes the list if the last element was popped.", cmd::blmpop::run),
    c("blpop", -3, WRITE | NOSCRIPT | flag::BLOCKING, (1, -2, 1), A_WRITE | LIST | SLOW | A_BLOCKING, "list", "2.0.0", "Removes and returns the first element in a list. Blocks until an element is available otherwise. Deletes the list if the last element was popped.", cmd::blpop::run),
    c("brpop", -3, WRITE | NOSCRIPT | flag::BLOCKING, (1, -2, 1), A_WRITE | LIST | SLOW | A_BLOCKING, "list", "2.0.0", "Removes and returns the last element in a list. Blocks until an element is available otherwise. Deletes the list if the last element was popped.", cmd::brpop::run),
    c("brpoplpush", 4, WRITE | DENYOOM | NOSCRIPT | flag::BLOCKING, (1, 2, 1), A_WRITE | LIST | SLOW | A_BLOCKING, "list", "2.2.0", "Pops an element from a list, pushes it to another list and returns it. Block until an element is available otherwise. Deletes the list if the last element was popped.", cmd::brpoplpush::run),
    c("bzmpop", -5, WRITE | flag::BLOCKING | MOVABLEKEYS, NOKEY, A_WRITE | SORTEDSET | SLOW | A_BLOCKING, "sorted_set", "7.0.0", "Removes and returns a member by score from one or more sorted sets. Blocks until a member is available otherwise. Deletes the sorted set if the last element was popped.", cmd::bzmpop::run),
    c("bzpopmax", -3, WRITE | NOSCRIPT | flag::BLOCKING | FAST, (1, -2, 1), A_WRITE | SORTEDSET | A_FAST | A_BLOCKING, "sorted_set", "5.0.0", "Removes and returns the member with the highest score from one or more sorted sets. Blocks until a member available otherwise.  Deletes the sorted set if the last element was popped.", cmd::bzpopmax::run),
    c("bzpopmin", -3, WRITE | NOSCRIPT | flag::BLOCKING | FAST, (1, -2, 1), A_WRITE | SORTEDSET | A_FAST | A_BLOCKING, "sorted_set", "5.0.0", "Removes and returns the member with the lowest score from one or more sorted sets. Blocks until a member is available otherwise. Deletes the sorted set if the last element was popped.", cmd::bzpopmin::run),
    container("client", -2, 0, SLOW, "connection", "2.4.0", "A container for client connection commands.", CLIENT_SUBCOMMANDS),
    CommandSpec { handler: Some(cmd::command::run), ..container("command", -1, LOADING | STALE, CONNECTION | SLOW, "server", "2.8.13", "Returns detailed information about all commands.", COMMAND_SUBCOMMANDS) },
    container("config", -2, 0, SLOW, "server", "2.0.0", "A container for server configuration commands.", CONFIG_SUBCOMMANDS),
    c("copy", -3, WRITE | DENYOOM, (1, 2, 1), KEYSPACE | A_WRITE | SLOW, "generic", "6.2.0", "Copies the value of a key to a new key.", cmd::copy::run),
    c("dbsize", 1, READONLY | FAST, NOKEY, KEYSPACE | R_FAST, "server", "1.0.0", "Returns the number of keys in the database.", cmd::dbsize::run),
    container("debug", -2, 0, A_ADMIN | SLOW | DANGEROUS, "server", "1.0.0", "A container for debugging commands.", DEBUG_SUBCOMMANDS),
    c("decr", 2, WRITE | DENYOOM | FAST, KEY1, W_FAST | STRING, "string", "1.0.0", "Decrements the integer value of a key by one. Uses 0 as initial value if the key doesn't exist.", cmd::decr::run),
    c("decrby", 3, WRITE | DENYOOM | FAST, KEY1, W_FAST | STRING, "string", "1.0.0", "Decrements a number from the integer value of a key. Uses 0 as initial value if the key doesn't exist.", cmd::decrby::run),
    c("del", -2, WRITE, ALLKEYS, KEYSPACE | A_WRITE | SLOW, "generic", "1.0.0", "Deletes one or more keys.", cmd::del::run),
    c("discard", 1, TX_FAST, NOKEY, A_FAST | TRANSACTION, "transactions", "2.0.0", "Discards a transaction.", cmd::discard::run),
    c("dump", 2, READONLY, KEY1, KEYSPACE | READ | SLOW, "generic", "2.6.0", "Returns a serialized representation of the value stored at a key.", cmd::dump::run),
    c("echo", 2, FAST, NOKEY, CONNECTION | A_FAST, "connection", "1.0.0", "Returns the given string.", cmd::echo::run),
    c("eval", -3, NOSCRIPT | STALE | EXCLUSIVE, NOKEY, SLOW | SCRIPTING, "scripting", "2.6.0", "Executes a server-side Lua script.", cmd::eval::run),
    c("eval_ro", -3, NOSCRIPT | STALE | EXCLUSIVE | READONLY, NOKEY, SLOW | SCRIPTING, "scripting", "7.0.0", "Executes a read-only server-side Lua script.", cmd::eval_ro::run),
    c("evalsha", -3, NOSCRIPT | STALE | EXCLUSIVE, NOKEY, SLOW | SCRIPTING, "scripting", "2.6.0", "Executes a server-side Lua script by SHA1 digest.", cmd::evalsha::run),
    c("evalsha_ro", -3, NOSCRIPT | STALE | EXCLUSIVE | READONLY, NOKEY, SLOW | SCRIPTING, "scripting", "7.0.0", "Executes a read-only server-side Lua script by SHA1 digest.", cmd::evalsha_ro::run),
    c("exec", 1, NOSCRIPT | LOADING | STALE | EXCLUSIVE, NOKEY, SLOW | TRANSACTION, "transactions", "1.2.0", "Executes all commands in a transaction.", cmd::exec::run),
    c("exists", -2, READONLY | FAST, ALLKEYS, KEYSPACE | R_FAST, "generic", "1.0.0", "Determines whether one or more keys exist.", cmd::exists::run),
    c("expire", -3, WRITE | FAST, KEY1, KEYSPACE | W_FAST, "generic", "1.0.0", "Sets the expiration time of a key in seconds.", cmd::expire::run),
    c("expireat", -3, WRITE | FAST, KEY1, KEYSPACE | W_FAST, "generic", "1.2.0", "Sets the expiration time of a key to a Unix timestamp.", cmd::expireat::run),
    c("expiretime", 2, READONLY | FAST, KEY1, KEYSPACE | R_FAST, "generic", "7.0.0", "Returns the expiration time of a key as a Unix timestamp.", cmd::expiretime::run),
    c("fcall", -3, NOSCRIPT | STALE | EXCLUSIVE, NOKEY, SLOW | SCRIPTING, "scripting", "7.0.0", "Invokes a function.", cmd::fcall::run),
    c("fcall_ro", -3, NOSCRIPT | STALE | EXCLUSIVE | READONLY, NOKEY, SLOW | SCRIPTING, "scripting", "7.0.0", "Invokes a read-only function.", cmd::fcall_ro::run),
    c("flushall", -1, WRITE, NOKEY, KEYSPACE | A_WRITE | SLOW | DANGEROUS, "server", "1.0.0", "Removes all keys from all databases.", cmd::flushall::run),
    c("flushdb", -1, WRITE, NOKEY, KEYSPACE | A_WRITE | SLOW | DANGEROUS, "server", "1.0.0", "Remove all keys from the current database.", cmd::flushdb::run),
    container("function", -2, 0, SLOW, "scripting", "7.0.0", "A container for function commands.", FUNCTION_SUBCOMMANDS),
    c("get", 2, READONLY | EXACT_READS | FAST, KEY1, R_FAST | STRING, "string", "1.0.0", "Returns the string value of a key.", cmd::get::run),
    c("getbit", 3, READONLY | EXACT_READS | FAST, KEY1, R_FAST | BITMAP, "bitmap", "2.2.0", "Returns a bit value by offset.", cmd::getbit::run),
    c("getdel", 2, WRITE | FAST, KEY1, W_FAST | STRING, "string", "6.2.0", "Returns the string value of a key after deleting the key.", cmd::getdel::run),
    c("getex", -2, WRITE | FAST, KEY1, W_FAST | STRING, "string", "6.2.0", "Returns the string value of a key after setting its expiration time.", cmd::getex::run),
    c("getrange", 4, READONLY | EXACT_READS, KEY1, READ | SLOW | STRING, "string", "2.4.0", "Returns a substring of the string stored at a key.", cmd::getrange::run),
    c("getset", 3, WRITE | DENYOOM | FAST, KEY1, W_FAST | STRING, "string", "1.0.0", "Returns the previous string value of a key after setting it to a new value.", cmd::getset::run),
    c("hdel", -3, WRITE | FAST, KEY1, W_FAST | HASH, "hash", "2.0.0", "Deletes one or more fields and their values from a hash. Deletes the hash if no fields remain.", cmd::hdel::run),
    c("hello", -1, CONN_NOAUTH, NOKEY, CONNECTION | A_FAST, "connection", "6.0.0", "Handshakes with the Redis server.", cmd::hello::run),
    c("hexists", 3, READONLY | EXACT_READS | FAST, KEY1, R_FAST | HASH, "hash", "2.0.0", "Determines whether a field exists in a hash.", cmd::hexists::run),
    c("hget", 3, READONLY | EXACT_READS | FAST, KEY1, R_FAST | HASH, "hash", "2.0.0", "Returns the value of a field in a hash.", cmd::hget::run),
    c("hgetall", 2, READONLY | EXACT_READS, KEY1, READ | SLOW | HASH, "hash", "2.0.0", "Returns all fields and values in a hash.", cmd::hgetall::run),
    c("hincrby", 4, WRITE | DENYOOM | FAST, KEY1, W_FAST | HASH, "hash", "2.0.0", "Increments the integer value of a field in a hash by a number. Uses 0 as initial value if the field doesn't exist.", cmd::hincrby::run),
    c("hincrbyfloat", 4, WRITE | DENYOOM | FAST, KEY1, W_FAST | HASH, "hash", "2.6.0", "Increments the floating point value of a field by a number. Uses 0 as initial value if the field doesn't exist.", cmd::hincrbyfloat::run),
    c("hkeys", 2, READONLY | EXACT_READS, KEY1, READ | SLOW | HASH, "hash", "2.0.0", "Returns all fields in a hash.", cmd::hkeys::run),
    c("hlen", 2, READONLY | EXACT_READS | FAST, KEY1, R_FAST | HASH, "hash", "2.0.0", "Returns the number of fields in a hash.", cmd::hlen::run),
    c("hmget", -3, READONLY | EXACT_READS | FAST, KEY1, R_FAST | HASH, "hash", "2.0.0", "Returns the values of all fields in a hash.", cmd::hmget::run),
    c("hmset", -4, WRITE | DENYOOM | FAST, KEY1, W_FAST | HASH, "hash", "2.0.0", "Sets the values of multiple fields.", cmd::hmset::run),
    c("hrandfield", -2, READONLY, KEY1, READ | SLOW | HASH, "hash", "6.2.0", "Returns one or more random fields from a hash.", cmd::hrandfield::run),
    c("hscan", -3, READONLY, KEY1, READ | SLOW | HASH, "hash", "2.8.0", "Iterates over fields and values of a hash.", cmd::hscan::run),
    c("hset", -4, WRITE | DENYOOM | FAST, KEY1, W_FAST | HASH, "hash", "2.0.0", "Creates or modifies the value of a field in a hash.", cmd::hset::run),
    c("hsetnx", 4, WRITE | DENYOOM | FAST, KEY1, W_FAST | HASH, "hash", "2.0.0", "Sets the value of a field in a hash only when the field doesn't exist.", cmd::hsetnx::run),
    c("hstrlen", 3, READONLY | EXACT_READS | FAST, KEY1, R_FAST | HASH, "hash", "3.2.0", "Returns the length of the value of a field.", cmd::hstrlen::run),
    c("hvals", 2, READONLY | EXACT_READS, KEY1, READ | SLOW | HASH, "hash", "2.0.0", "Returns all values in a hash.", cmd::hvals::run),
    c("incr", 2, WRITE | DENYOOM | FAST, KEY1, W_FAST | STRING, "string", "1.0.0", "Increments the integer value of a key by one. Uses 0 as initial value if the key doesn't exist.", cmd::incr::run),
    c("incrby", 3, WRITE | DENYOOM | FAST, KEY1, W_FAST | STRING, "string", "1.0.0", "Increments the integer value of a key by a number. Uses 0 as initial value if the key doesn't exist.", cmd::incrby::run),
    c("incrbyfloat", 3, WRITE | DENYOOM | FAST, KEY1, W_FAST | STRING, "string", "2.6.0", "Increment the floating point value of a key by a number. Uses 0 as initial value if the key doesn't exist.", cmd::incrbyfloat::run),
    c("info", -1, LOADING | STALE, NOKEY, SLOW | DANGEROUS, "server", "1.0.0", "Returns information and statistics about the server.", cmd::info::run),
    c("keys", 2, READONLY, NOKEY, KEYSPACE | READ | SLOW | DANGEROUS, "generic", "1.0.0", "Returns all key names that match a pattern.", cmd::keys::run),
    c("lcs", -3, READONLY, (1, 2, 1), READ | STRING | SLOW, "string", "7.0.0", "Finds the longest common substring.", cmd::lcs::run),
    c("lindex", 3, READONLY | EXACT_READS, KEY1, READ | LIST | SLOW, "list", "1.0.0", "Returns an element from a list by its index.", cmd::lindex::run),
    c("linsert", 5, WRITE | DENYOOM, KEY1, A_WRITE | LIST | SLOW, "list", "2.2.0", "Inserts an element before or after another element in a list.", cmd::linsert::run),
    c("llen", 2, READONLY | EXACT_READS | FAST, KEY1, R_FAST | LIST, "list", "1.0.0", "Returns the length of a list.", cmd::llen::run),
    c("lmove", 5, WRITE | DENYOOM, (1, 2, 1), A_WRITE | LIST | SLOW, "list", "6.2.0", "Returns an element after popping it from one list and pushing it to another. Deletes the list if the last element was moved.", cmd::lmove::run),
    c("lmpop", -4, WRITE | MOVABLEKEYS, NOKEY, A_WRITE | LIST | SLOW, "list", "7.0.0", "Returns multiple elements from a list after removing them. Deletes the list if the last element was popped.", cmd::lmpop::run),
    c("lpop", -2, WRITE | FAST, KEY1, W_FAST | LIST, "list", "1.0.0", "Returns the first elements in a list after removing it. Deletes the list if the last element was popped.", cmd::lpop::run),
    c("lpos", -3, READONLY, KEY1, READ | LIST | SLOW, "list", "6.0.6", "Returns the index of matching elements in a list.", cmd::lpos::run),
    c("lpush", -3, WRITE | DENYOOM | FAST, KEY1, W_FAST | LIST, "list", "1.0.0", "Prepends one or more elements to a list. Creates the key if it doesn't exist.", cmd::lpush::run),
    c("lpushx", -3, WRITE | DENYOOM | FAST, KEY1, W_FAST | LIST, "list", "2.2.0", "Prepends one or more elements to a list only when the list exists.", cmd::lpushx::run),
    c("lrange", 4, READONLY | EXACT_READS, KEY1, READ | SLOW | LIST, "list", "1.0.0", "Returns a range of elements from a list.", cmd::lrange::run),
    c("lrem", 4, WRITE, KEY1, A_WRITE | LIST | SLOW, "list", "1.0.0", "Removes elements from a list. Deletes the list if the last element was removed.", cmd::lrem::run),
    c("lset", 4, WRITE | DENYOOM, KEY1, A_WRITE | LIST | SLOW, "list", "1.0.0", "Sets the value of an element in a list by its index.", cmd::lset::run),
    c("ltrim", 4, WRITE, KEY1, A_WRITE | LIST | SLOW, "list", "1.0.0", "Removes elements from both ends a list. Deletes the list if all elements were trimmed.", cmd::ltrim::run),
    container("memory", -2, 0, SLOW, "server", "4.0.0", "A container for memory diagnostics commands.", MEMORY_SUBCOMMANDS),
    c("mget", -2, READONLY | EXACT_READS | FAST, ALLKEYS, R_FAST | STRING, "string", "1.0.0", "Atomically returns the string values of one or more keys.", cmd::mget::run),
    c("move", 3, WRITE | FAST, KEY1, KEYSPACE | W_FAST, "generic", "1.0.0", "Moves a key to another database.", cmd::move_::run),
    c("mset", -3, WRITE | DENYOOM, (1, -1, 2), A_WRITE | SLOW | STRING, "string", "1.0.1", "Atomically creates or modifies the string values of one or more keys.", cmd::mset::run),
    c("msetnx", -3, WRITE | DENYOOM, (1, -1, 2), A_WRITE | SLOW | STRING, "string", "1.0.1", "Atomically modifies the string values of one or more keys only when all keys don't exist.", cmd::msetnx::run),
    c("multi", 1, TX_FAST, NOKEY, A_FAST | TRANSACTION, "transactions", "1.2.0", "Starts a transaction.", cmd::multi::run),
    container("object", -2, 0, SLOW, "generic", "2.2.3", "A container for object introspection commands.", OBJECT_SUBCOMMANDS),
    c("persist", 2, WRITE | FAST, KEY1, KEYSPACE | W_FAST, "generic", "2.2.0", "Removes the expiration time of a key.", cmd::persist::run),
    c("pexpire", -3, WRITE | FAST, KEY1, KEYSPACE | W_FAST, "generic", "2.6.0", "Sets the expiration time of a key in milliseconds.", cmd::pexpire::run),
    c("pexpireat", -3, WRITE | FAST, KEY1, KEYSPACE | W_FAST, "generic", "2.6.0", "Sets the expiration time of a key to a Unix milliseconds timestamp.", cmd::pexpireat::run),
    c("pexpiretime", 2, READONLY | FAST, KEY1, KEYSPACE | R_FAST, "generic", "7.0.0", "Returns the expiration time of a key as a Unix milliseconds timestamp.", cmd::pexpiretime::run),
    c("ping", -1, FAST, NOKEY, CONNECTION | A_FAST, "connection", "1.0.0", "Returns the server's liveliness response.", cmd::ping::run),
    c("psetex", 4, WRITE | DENYOOM, KEY1, A_WRITE | SLOW | STRING, "string", "2.6.0", "Sets both string value and expiration time in milliseconds of a key. The key is created if it doesn't exist.", cmd::psetex::run),
    c("psubscribe", -2, SUB, NOKEY, A_PUBSUB | SLOW, "pubsub", "2.0.0", "Listens for messages published to channels that match one or more patterns.", cmd::psubscribe::run),
    c("psync", -3, ADMIN | NOSCRIPT | NO_MULTI, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "2.8.0", "An internal command used in replication.", cmd::psync::run),
    c("pttl", 2, READONLY | EXACT_READS | FAST, KEY1, KEYSPACE | R_FAST, "generic", "2.6.0", "Returns the expiration time in milliseconds of a key.", cmd::pttl::run),
    c("publish", 3, flag::PUBSUB | LOADING | STALE | FAST, NOKEY, A_PUBSUB | A_FAST, "pubsub", "2.0.0", "Posts a message to a channel.", cmd::publish::run),
    container("pubsub", -2, 0, SLOW, "pubsub", "2.8.0", "A container for Pub/Sub commands.", PUBSUB_SUBCOMMANDS),
    c("punsubscribe", -1, SUB, NOKEY, A_PUBSUB | SLOW, "pubsub", "2.0.0", "Stops listening to messages published to channels that match one or more patterns.", cmd::punsubscribe::run),
    c("quit", -1, CONN_NOAUTH, NOKEY, CONNECTION | A_FAST, "connection", "1.0.0", "Closes the connection.", cmd::quit::run),
    c("randomkey", 1, READONLY, NOKEY, KEYSPACE | READ | SLOW, "generic", "1.0.0", "Returns a random key name from the database.", cmd::randomkey::run),
    c("rename", 3, WRITE, (1, 2, 1), KEYSPACE | A_WRITE | SLOW, "generic", "1.0.0", "Renames a key and overwrites the destination.", cmd::rename::run),
    c("renamenx", 3, WRITE | FAST, (1, 2, 1), KEYSPACE | W_FAST, "generic", "1.0.0", "Renames a key only when the target key name doesn't exist.", cmd::renamenx::run),
    c("replconf", -1, ADMIN | NOSCRIPT | LOADING | STALE | ALLOW_BUSY, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "3.0.0", "An internal command for configuring the replication stream.", cmd::replconf::run),
    c("replicaof", 3, ADMIN | NOSCRIPT | STALE | EXCLUSIVE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "5.0.0", "Configures a server as replica of another, or promotes it to a master.", cmd::replicaof::run),
    c("reset", 1, CONN_NOAUTH, NOKEY, CONNECTION | A_FAST, "connection", "6.2.0", "Resets the connection.", cmd::reset::run),
    c("restore", -4, WRITE | DENYOOM, KEY1, KEYSPACE | A_WRITE | SLOW | DANGEROUS, "generic", "2.6.0", "Creates a key from the serialized representation of a value.", cmd::restore::run),
    c("role", 1, NOSCRIPT | LOADING | STALE | FAST, NOKEY, A_ADMIN | A_FAST | DANGEROUS, "server", "2.8.12", "Returns the replication role.", cmd::role::run),
    c("rpop", -2, WRITE | FAST, KEY1, W_FAST | LIST, "list", "1.0.0", "Returns and removes the last elements of a list. Deletes the list if the last element was popped.", cmd::rpop::run),
    c("rpoplpush", 3, WRITE | DENYOOM, (1, 2, 1), A_WRITE | LIST | SLOW, "list", "1.2.0", "Returns the last element of a list after removing and pushing it to another list. Deletes the list if the last element was popped.", cmd::rpoplpush::run),
    c("rpush", -3, WRITE | DENYOOM | FAST, KEY1, W_FAST | LIST, "list", "1.0.0", "Appends one or more elements to a list. Creates the key if it doesn't exist.", cmd::rpush::run),
    c("rpushx", -3, WRITE | DENYOOM | FAST, KEY1, W_FAST | LIST, "list", "2.2.0", "Appends an element to a list only when the list exists.", cmd::rpushx::run),
    c("sadd", -3, WRITE | DENYOOM | FAST, KEY1, W_FAST | A_SET, "set", "1.0.0", "Adds one or more members to a set. Creates the key if it doesn't exist.", cmd::sadd::run),
    c("scan", -2, READONLY, NOKEY, KEYSPACE | READ | SLOW, "generic", "2.8.0", "Iterates over the key names in the database.", cmd::scan::run),
    c("scard", 2, READONLY | EXACT_READS | FAST, KEY1, R_FAST | A_SET, "set", "1.0.0", "Returns the number of members in a set.", cmd::scard::run),
    container("script", -2, 0, SLOW, "scripting", "2.6.0", "A container for Lua scripts management commands.", SCRIPT_SUBCOMMANDS),
    c("sdiff", -2, READONLY, ALLKEYS, READ | A_SET | SLOW, "set", "1.0.0", "Returns the difference of multiple sets.", cmd::sdiff::run),
    c("sdiffstore", -3, WRITE | DENYOOM, (1, -1, 1), A_WRITE | A_SET | SLOW, "set", "1.0.0", "Stores the difference of multiple sets in a key.", cmd::sdiffstore::run),
    c("select", 2, CONN, NOKEY, CONNECTION | A_FAST, "connection", "1.0.0", "Changes the selected database.", cmd::select::run),
    c("set", -3, WRITE | DENYOOM, KEY1, A_WRITE | SLOW | STRING, "string", "1.0.0", "Sets the string value of a key, ignoring its type. The key is created if it doesn't exist.", cmd::set::run),
    c("setbit", 4, WRITE | DENYOOM, KEY1, A_WRITE | BITMAP | SLOW, "bitmap", "2.2.0", "Sets or clears the bit at offset of the string value. Creates the key if it doesn't exist.", cmd::setbit::run),
    c("setex", 4, WRITE | DENYOOM, KEY1, A_WRITE | SLOW | STRING, "string", "2.0.0", "Sets the string value and expiration time of a key. Creates the key if it doesn't exist.", cmd::setex::run),
    c("setnx", 3, WRITE | DENYOOM | FAST, KEY1, W_FAST | STRING, "string", "1.0.0", "Set the string value of a key only when the key doesn't exist.", cmd::setnx::run),
    c("setrange", 4, WRITE | DENYOOM, KEY1, A_WRITE | SLOW | STRING, "string", "2.2.0", "Overwrites a part of a string value with another by an offset. Creates the key if it doesn't exist.", cmd::setrange::run),
    c("shutdown", -1, ADMIN | NOSCRIPT | LOADING | STALE | ALLOW_BUSY | NO_MULTI, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "1.0.0", "Synchronously saves the database(s) to disk and shuts down the Redis server.", cmd::shutdown::run),
    c("sinter", -2, READONLY, ALLKEYS, READ | A_SET | SLOW, "set", "1.0.0", "Returns the intersect of multiple sets.", cmd::sinter::run),
    c("sintercard", -3, READONLY | MOVABLEKEYS, NOKEY, READ | A_SET | SLOW, "set", "7.0.0", "Returns the number of members of the intersect of multiple sets.", cmd::sintercard::run),
    c("sinterstore", -3, WRITE | DENYOOM, (1, -1, 1), A_WRITE | A_SET | SLOW, "set", "1.0.0", "Stores the intersect of multiple sets in a key.", cmd::sinterstore::run),
    c("sismember", 3, READONLY | EXACT_READS | FAST, KEY1, R_FAST | A_SET, "set", "1.0.0", "Determines whether a member belongs to a set.", cmd::sismember::run),
    container("slowlog", -2, 0, A_ADMIN | SLOW | DANGEROUS, "server", "2.2.12", "A container for slow log commands.", SLOWLOG_SUBCOMMANDS),
    c("slaveof", 3, ADMIN | NOSCRIPT | STALE | EXCLUSIVE, NOKEY, A_ADMIN | SLOW | DANGEROUS, "server", "1.0.0", "Sets a Redis server as a replica of another, or promotes it to being a master.", cmd::replicaof::run),
    c("smembers", 2, READONLY | EXACT_READS, KEY1, READ | SLOW | A_SET, "set", "1.0.0", "Returns all members of a set.", cmd::smembers::run),
    c("smismember", -3, READONLY | FAST, KEY1, R_FAST | A_SET, "set", "6.2.0", "Determines whether multiple members belong to a set.", cmd::smismember::run),
    c("smove", 4, WRITE | FAST, (1, 2, 1), W_FAST | A_SET, "set", "1.0.0", "Moves a member from one set to another.", cmd::smove::run),
    c("sort", -2, WRITE | DENYOOM, KEY1, A_WRITE | A_SET | SORTEDSET | LIST | SLOW, "generic", "1.0.0", "Sorts the elements in a list, a set, or a sorted set, optionally storing the result.", cmd::sort::run),
    c("spop", -2, WRITE | FAST, KEY1, W_FAST | A_SET, "set", "1.0.0", "Returns one or more random members from a set after removing them. Deletes the set if the last member was popped.", cmd::spop::run),
    c("srandmember", -2, READONLY, KEY1, READ | SLOW | A_SET, "set", "1.0.0", "Get one or multiple random members from a set", cmd::srandmember::run),
    c("srem", -3, WRITE | FAST, KEY1, W_FAST | A_SET, "set", "1.0.0", "Removes one or more members from a set. Deletes the set if the last member was removed.", cmd::srem::run),
    c("strlen", 2, READONLY | EXACT_READS | FAST, KEY1, R_FAST | STRING, "string", "2.2.0", "Returns the length of a string value.", cmd::strlen::run),
    c("subscribe", -2, SUB, NOKEY, A_PUBSUB | SLOW, "pubsub", "2.0.0", "Listens for messages published to channels.", cmd::subscribe::run),
    c("sunion", -2, READONLY, ALLKEYS, READ | A_SET | SLOW, "set", "1.0.0", "Returns the union of multiple sets.", cmd::sunion::run),
    c("sunionstore", -3, WRITE | DENYOOM, (1, -1, 1), A_WRITE | A_SET | SLOW, "set", "1.0.0", "Stores the union of multiple sets in a key.", cmd::sunionstore::run),
    c("swapdb", 3, WRITE | FAST, NOKEY, KEYSPACE | W_FAST | DANGEROUS, "server", "4.0.0", "Swaps two Redis databases.", cmd::swapdb::run),
    c("time", 1, LOADING | STALE | FAST, NOKEY, A_FAST, "server", "2.6.0", "Returns the server time.", cmd::time::run),
    c("ttl", 2, READONLY | EXACT_READS | FAST, KEY1, KEYSPACE | R_FAST, "generic", "1.0.0", "Returns the expiration time in seconds of a key.", cmd::ttl::run),
    c("type", 2, READONLY | FAST, KEY1, KEYSPACE | R_FAST, "generic", "1.0.0", "Determines the type of value stored at a key.", cmd::type_::run),
    c("unlink", -2, WRITE | FAST, ALLKEYS, KEYSPACE | W_FAST, "generic", "4.0.0", "Asynchronously deletes one or more keys.", cmd::unlink::run),
    c("unsubscribe", -1, SUB, NOKEY, A_PUBSUB | SLOW, "pubsub", "2.0.0", "Stops listening to messages posted to channels.", cmd::unsubscribe::run),
    c("unwatch", 1, TX_FAST, NOKEY, A_FAST | TRANSACTION, "transactions", "2.2.0", "Forgets about watched keys of a transaction.", cmd::unwatch::run),
    c("wait", 3, NOSCRIPT, NOKEY, SLOW | CONNECTION, "generic", "3.0.0", "Blocks until the asynchronous replication of all preceding write commands sent by the connection is completed.", cmd::wait::run),
    c("watch", -2, TX_FAST, ALLKEYS, A_FAST | TRANSACTION, "transactions", "2.2.0", "Monitors changes to keys to determine the execution of a transaction.", cmd::watch::run),
    c("xack", -4, WRITE | FAST, KEY1, W_FAST | A_STREAM, "stream", "5.0.0", "Marks a pending message as correctly processed, effectively removing it from the pending entries list of the consumer group. Return value of the command is the number of messages successfully acknowledged, that is, the IDs we were actually able to resolve in the PEL.", cmd::xack::run),
    c("xadd", -5, WRITE | DENYOOM | FAST, KEY1, W_FAST | A_STREAM, "stream", "5.0.0", "Appends a new entry to a stream", cmd::xadd::run),
    c("xautoclaim", -6, WRITE | FAST, KEY1, W_FAST | A_STREAM, "stream", "6.2.0", "Changes (or acquires) ownership of messages in a consumer group, as if the messages were delivered to the specified consumer.", cmd::xautoclaim::run),
    c("xclaim", -6, WRITE | FAST, KEY1, W_FAST | A_STREAM, "stream", "5.0.0", "Changes (or acquires) ownership of a message in a consumer group, as if the message was delivered to the specified consumer.", cmd::xclaim::run),
    c("xdel", -3, WRITE | FAST, KEY1, W_FAST | A_STREAM, "stream", "5.0.0", "Removes the specified entries from the stream. Returns the number of items actually deleted, that may be different from the number of IDs passed in case certain IDs do not exist.", cmd::xdel::run),
    container("xgroup", -2, 0, SLOW, "stream", "5.0.0", "A container for consumer groups commands", XGROUP_SUBCOMMANDS),
    container("xinfo", -2, 0, SLOW, "stream", "5.0.0", "A container for stream introspection commands", XINFO_SUBCOMMANDS),
    c("xlen", 2, READONLY | FAST, KEY1, R_FAST | A_STREAM, "stream", "5.0.0", "Return the number of entries in a stream", cmd::xlen::run),
    c("xpending", -3, READONLY, KEY1, READ | A_STREAM | SLOW, "stream", "5.0.0", "Return information and entries from a stream consumer group pending entries list, that are messages fetched but never acknowledged.", cmd::xpending::run),
    c("xrange", -4, READONLY, KEY1, READ | A_STREAM | SLOW, "stream", "5.0.0", "Return a range of elements in a stream, with IDs matching the specified IDs interval", cmd::xrange::run),
    c("xread", -4, READONLY | flag::BLOCKING | MOVABLEKEYS, NOKEY, READ | A_STREAM | SLOW | A_BLOCKING, "stream", "5.0.0", "Return never seen elements in multiple streams, with IDs greater than the ones reported by the caller for each stream. Can block.", cmd::xread::run),
    c("xreadgroup", -7, WRITE | flag::BLOCKING | MOVABLEKEYS, NOKEY, A_WRITE | A_STREAM | SLOW | A_BLOCKING, "stream", "5.0.0", "Return new entries from a stream using a consumer group, or access the history of the pending entries for a given consumer. Can block.", cmd::xreadgroup::run),
    c("xrevrange", -4, READONLY, KEY1, READ | A_STREAM | SLOW, "stream", "5.0.0", "Return a range of elements in a stream, with IDs matching the specified IDs interval, in reverse order (from greater to smaller IDs) compared to XRANGE", cmd::xrevrange::run),
    c("xsetid", -3, WRITE | DENYOOM | FAST, KEY1, W_FAST | A_STREAM, "stream", "5.0.0", "An internal command for replicating stream values", cmd::xsetid::run),
    c("xtrim", -4, WRITE, KEY1, A_WRITE | A_STREAM | SLOW, "stream", "5.0.0", "Trims the stream to (approximately if '~' is passed) a certain size", cmd::xtrim::run),
    c("zadd", -4, WRITE | DENYOOM | FAST, KEY1, W_FAST | SORTEDSET, "sorted_set", "1.2.0", "Adds one or more members to a sorted set, or updates their scores. Creates the key if it doesn't exist.", cmd::zadd::run),
    c("zcard", 2, READONLY | EXACT_READS | FAST, KEY1, R_FAST | SORTEDSET, "sorted_set", "1.2.0", "Returns the number of members in a sorted set.", cmd::zcard::run),
    c("zcount", 4, READONLY | FAST, KEY1, R_FAST | SORTEDSET, "sorted_set", "2.0.0", "Returns the count of members in a sorted set that have scores within a range.", cmd::zcount::run),
    c("zdiff", -3, READONLY | MOVABLEKEYS, NOKEY, READ | SORTEDSET | SLOW, "sorted_set", "6.2.0", "Returns the difference between multiple sorted sets.", cmd::zdiff::run),
    c("zdiffstore", -4, WRITE | DENYOOM | MOVABLEKEYS, KEY1, A_WRITE | SORTEDSET | SLOW, "sorted_set", "6.2.0", "Stores the difference of multiple sorted sets in a key.", cmd::zdiffstore::run),
    c("zincrby", 4, WRITE | DENYOOM | FAST, KEY1, W_FAST | SORTEDSET, "sorted_set", "1.2.0", "Increments the score of a member in a sorted set.", cmd::zincrby::run),
    c("zinter", -3, READONLY | MOVABLEKEYS, NOKEY, READ | SORTEDSET | SLOW, "sorted_set", "6.2.0", "Returns the intersect of multiple sorted sets.", cmd::zinter::run),
    c("zintercard", -3, READONLY | MOVABLEKEYS, NOKEY, READ | SORTEDSET | SLOW, "sorted_set", "7.0.0", "Returns the number of members of the intersect of multiple sorted sets.", cmd::zintercard::run),
    c("zinterstore", -4, WRITE | DENYOOM | MOVABLEKEYS, KEY1, A_WRITE | SORTEDSET | SLOW, "sorted_set", "2.0.0", "Stores the intersect of multiple sorted sets in a key.", cmd::zinterstore::run),
    c("zlexcount", 4, READONLY | FAST, KEY1, R_FAST | SORTEDSET, "sorted_set", "2.8.9", "Returns the number of members in a sorted set within a lexicographical range.", cmd::zlexcount::run),
    c("zmpop", -4, WRITE | MOVABLEKEYS, NOKEY, A_WRITE | SORTEDSET | SLOW, "sorted_set", "7.0.0", "Returns the highest- or lowest-scoring members from one or more sorted sets after removing them. Deletes the sorted set if the last member was popped.", cmd::zmpop::run),
    c("zmscore", -3, READONLY | FAST, KEY1, R_FAST | SORTEDSET, "sorted_set", "6.2.0", "Returns the score of one or more members in a sorted set.", cmd::zmscore::run),
    c("zpopmax", -2, WRITE | FAST, KEY1, W_FAST | SORTEDSET, "sorted_set", "5.0.0", "Returns the highest-scoring members from a sorted set after removing them. Deletes the sorted set if the last member was popped.", cmd::zpopmax::run),
    c("zpopmin", -2, WRITE | FAST, KEY1, W_FAST | SORTEDSET, "sorted_set", "5.0.0", "Returns the lowest-scoring members from a sorted set after removing them. Deletes the sorted set if the last member was popped.", cmd::zpopmin::run),
    c("zrandmember", -2, READONLY, KEY1, READ | SORTEDSET | SLOW, "sorted_set", "6.2.0", "Returns one or more random members from a sorted set.", cmd::zrandmember::run),
    c("zrange", -4, READONLY, KEY1, READ | SLOW | SORTEDSET, "sorted_set", "1.2.0", "Returns members in a sorted set within a range of indexes.", cmd::zrange::run),
    c("zrangebylex", -4, READONLY, KEY1, READ | SORTEDSET | SLOW, "sorted_set", "2.8.9", "Returns members in a sorted set within a lexicographical range.", cmd::zrangebylex::run),
    c("zrangebyscore", -4, READONLY, KEY1, READ | SLOW | SORTEDSET, "sorted_set", "1.0.5", "Returns members in a sorted set within a range of scores.", cmd::zrangebyscore::run),
    c("zrangestore", -5, WRITE | DENYOOM, (1, 2, 1), A_WRITE | SORTEDSET | SLOW, "sorted_set", "6.2.0", "Stores a range of members from sorted set in a key.", cmd::zrangestore::run),
    c("zrank", 3, READONLY | EXACT_READS | FAST, KEY1, R_FAST | SORTEDSET, "sorted_set", "2.0.0", "Returns the index of a member in a sorted set ordered by ascending scores.", cmd::zrank::run),
    c("zrem", -3, WRITE | FAST, KEY1, W_FAST | SORTEDSET, "sorted_set", "1.2.0", "Removes one or more members from a sorted set. Deletes the sorted set if all members were removed.", cmd::zrem::run),
    c("zremrangebylex", 4, WRITE, KEY1, A_WRITE | SORTEDSET | SLOW, "sorted_set", "2.8.9", "Removes members in a sorted set within a lexicographical range. Deletes the sorted set if all members were removed.", cmd::zremrangebylex::run),
    c("zremrangebyrank", 4, WRITE, KEY1, A_WRITE | SORTEDSET | SLOW, "sorted_set", "2.0.0", "Removes members in a sorted set within a range of indexes. Deletes the sorted set if all members were removed.", cmd::zremrangebyrank::run),
    c("zremrangebyscore", 4, WRITE, KEY1, A_WRITE | SORTEDSET | SLOW, "sorted_set", "1.2.0", "Removes members in a sorted set within a range of scores. Deletes the sorted set if all members were removed.", cmd::zremrangebyscore::run),
    c("zrevrange", -4, READONLY, KEY1, READ | SORTEDSET | SLOW, "sorted_set", "1.2.0", "Returns members in a sorted set within a range of indexes in reverse order.", cmd::zrevrange::run),
    c("zrevrangebylex", -4, READONLY, KEY1, READ | SORTEDSET | SLOW, "sorted_set", "2.8.9", "Returns members in a sorted set within a lexicographical range in reverse order.", cmd::zrevrangebylex::run),
    c("zrevrangebyscore", -4, READONLY, KEY1, READ | SORTEDSET | SLOW, "sorted_set", "2.2.0", "Returns members in a sorted set within a range of scores in reverse order.", cmd::zrevrangebyscore::run),
    c("zrevrank", 3, READONLY | FAST, KEY1, R_FAST | SORTEDSET, "sorted_set", "2.0.0", "Returns the index of a member in a sorted set ordered by descending scores.", cmd::zrevrank::run),
    c("zscore", 3, READONLY | EXACT_READS | FAST, KEY1, R_FAST | SORTEDSET, "sorted_set", "1.2.0", "Returns the score of a member in a sorted set.", cmd::zscore::run),
    c("zunion", -3, READONLY | MOVABLEKEYS, NOKEY, READ | SORTEDSET | SLOW, "sorted_set", "6.2.0", "Returns the union of multiple sorted sets.", cmd::zunion::run),
    c("zunionstore", -4, WRITE | DENYOOM | MOVABLEKEYS, KEY1, A_WRITE | SORTEDSET | SLOW, "sorted_set", "2.0.0", "Stores the union of multiple sorted sets in a key.", cmd::zunionstore::run),
];
