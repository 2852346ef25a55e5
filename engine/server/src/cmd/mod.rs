//! The commands, one per file: each parses its arguments, applies itself to the store and
//! writes its reply. Shared argument parsing lives here; shared storage patterns in `util`.

use crate::client::Session;
use crate::error::{CmdError, CmdResult};
use crate::resp::number::{parse_f64, parse_i64};
use crate::resp::{Args, Reply};
use crate::server::Shared;
use crate::stats::LocalStats;
use basalt_storage::{Keyspace, Lsn};

/// A command handler: arguments in (`args.get(0)` is the name), reply out.
pub type Handler = fn(&mut Ctx<'_>, Args<'_>) -> CmdResult;

/// What a command sees while it runs.
pub struct Ctx<'a> {
    pub shared: &'a Shared,
    pub session: &'a mut Session,
    pub reply: &'a mut Reply,
    /// Set by commands that wrote: the log position the reply must wait for.
    pub lsn: Option<Lsn>,
    /// Registry index of the running command.
    pub index: usize,
    /// The connection's command counters (EXEC counts the commands it runs).
    pub stats: &'a mut LocalStats,
    /// Set by a blocking command that found nothing: the connection waits, then runs it again.
    pub block: Option<crate::blocking::BlockRequest>,
}

impl<'a> Ctx<'a> {
    /// The database the connection selected.
    pub fn db(&self) -> Keyspace<'a> {
        self.shared.db.keyspace(self.session.db)
    }

    /// Whether a blocking command may block now (not inside MULTI or a script, not after its
    /// timeout).
    pub fn can_block(&self) -> bool {
        !self.session.unblocking && !crate::multi::in_transaction()
    }

    /// Records that this command wrote at `lsn` (0: nothing changed, nothing to wait for).
    pub fn wrote(&mut self, lsn: Lsn) {
        if lsn != 0 {
            self.lsn = Some(self.lsn.map_or(lsn, |old: Lsn| old.max(lsn)));
        }
    }
}

/// A signed 64-bit integer argument, as Redis' `getLongLongFromObjectOrReply`.
pub fn arg_i64(arg: &[u8]) -> Result<i64, CmdError> {
    parse_i64(arg).ok_or(CmdError::NotInteger)
}

/// A float argument that refuses NaN.
pub fn arg_f64(arg: &[u8]) -> Result<f64, CmdError> {
    parse_f64(arg).ok_or(CmdError::NotFloat)
}

/// The reply of a `... HELP` subcommand: one simple string per line.
pub fn help_reply(ctx: &mut Ctx<'_>, lines: &[&str]) -> CmdResult {
    ctx.reply.array(lines.len());
    for line in lines {
        ctx.reply.simple(line);
    }
    Ok(())
}

/// Case-insensitive comparison of an argument with an option name.
pub fn is(arg: &[u8], name: &str) -> bool {
    arg.eq_ignore_ascii_case(name.as_bytes())
}

pub mod util;

pub mod acl;
pub mod acl_cat;
pub mod acl_deluser;
pub mod acl_getuser;
pub mod acl_list;
pub mod acl_load;
pub mod acl_save;
pub mod acl_setuser;
pub mod acl_users;
pub mod acl_whoami;
pub mod append;
pub mod auth;
pub mod backup;
pub mod backup_archived;
pub mod backup_base;
pub mod backup_help;
pub mod backup_read;
pub mod backup_segments;
pub mod bitcount;
pub mod bitop;
pub mod bitpos;
pub mod bitrange;
pub mod blmove;
pub mod blmpop;
pub mod blpop;
pub mod brpop;
pub mod brpoplpush;
pub mod bzmpop;
pub mod bzpopmax;
pub mod bzpopmin;
pub mod client_getname;
pub mod client_help;
pub mod client_id;
pub mod client_info;
pub mod client_kill;
pub mod client_list;
pub mod client_no_evict;
pub mod client_reply;
pub mod client_setname;
pub mod client_unblock;
pub mod command;
pub mod command_count;
pub mod command_docs;
pub mod command_help;
pub mod command_info;
pub mod config_get;
pub mod config_help;
pub mod config_resetstat;
pub mod config_set;
pub mod copy;
pub mod dbsize;
pub mod debug_digest_value;
pub mod debug_help;
pub mod debug_log;
pub mod debug_object;
pub mod debug_protocol;
pub mod debug_quicklist_packed_threshold;
pub mod debug_reload;
pub mod debug_set_active_expire;
pub mod debug_set_disable_deny_scripts;
pub mod debug_sleep;
pub mod decr;
pub mod decrby;
pub mod del;
pub mod discard;
pub mod dump;
pub mod echo;
pub mod eval;
pub mod eval_ro;
pub mod evalsha;
pub mod evalsha_ro;
pub mod exec;
pub mod exists;
pub mod expire;
pub mod expireat;
pub mod expiretime;
pub mod fcall;
pub mod fcall_ro;
pub mod flushall;
pub mod flushdb;
pub mod function_delete;
pub mod function_flush;
pub mod function_kill;
pub mod function_load;
pub mod get;
pub mod getbit;
pub mod getdel;
pub mod getex;
pub mod getrange;
pub mod getset;
pub mod hdel;
pub mod hello;
pub mod hexists;
pub mod hget;
pub mod hgetall;
pub mod hincrby;
pub mod hincrbyfloat;
pub mod hkeys;
pub mod hlen;
pub mod hmget;
pub mod hmset;
pub mod hrandfield;
pub mod hscan;
pub mod hset;
pub mod hsetnx;
pub mod hstrlen;
pub mod hvals;
pub mod incr;
pub mod incrby;
pub mod incrbyfloat;
pub mod info;
pub mod keys;
pub mod lcs;
pub mod lindex;
pub mod linsert;
pub mod llen;
pub mod lmove;
pub mod lmpop;
pub mod lpop;
pub mod lpos;
pub mod lpush;
pub mod lpushx;
pub mod lrange;
pub mod lrem;
pub mod lset;
pub mod ltrim;
pub mod mget;
pub mod memory_help;
pub mod memory_usage;
pub mod move_;
pub mod movable_keys;
pub mod mset;
pub mod msetnx;
pub mod multi;
pub mod object_encoding;
pub mod object_freq;
pub mod object_help;
pub mod object_idletime;
pub mod object_refcount;
pub mod persist;
pub mod pexpire;
pub mod pexpireat;
pub mod pexpiretime;
pub mod ping;
pub mod psetex;
pub mod psubscribe;
pub mod psync;
pub mod pttl;
pub mod publish;
pub mod pubsub_channels;
pub mod pubsub_help;
pub mod pubsub_numpat;
pub mod pubsub_numsub;
pub mod punsubscribe;
pub mod quit;
pub mod randomkey;
pub mod rename;
pub mod replconf;
pub mod replicaof;
pub mod renamenx;
pub mod reset;
pub mod restore;
pub mod role;
pub mod rpop;
pub mod rpoplpush;
pub mod rpush;
pub mod rpushx;
pub mod sadd;
pub mod scan;
pub mod scard;
pub mod script_exists;
pub mod script_flush;
pub mod script_help;
pub mod script_kill;
pub mod script_load;
pub mod sdiff;
pub mod sdiffstore;
pub mod select;
pub mod set;
pub mod setbit;
pub mod setops;
pub mod setex;
pub mod setnx;
pub mod setrange;
pub mod shutdown;
pub mod sinter;
pub mod sintercard;
pub mod sinterstore;
pub mod sismember;
pub mod smembers;
pub mod slowlog_get;
pub mod slowlog_help;
pub mod slowlog_len;
pub mod slowlog_reset;
pub mod smismember;
pub mod smove;
pub mod sort;
pub mod spop;
pub mod srandmember;
pub mod srem;
pub mod strlen;
pub mod subscribe;
pub mod sunion;
pub mod sunionstore;
pub mod swapdb;
pub mod time;
pub mod ttl;
pub mod type_;
pub mod unlink;
pub mod unsubscribe;
pub mod unwatch;
pub mod wait;
pub mod watch;
pub mod zadd;
pub mod zcard;
pub mod zcount;
pub mod zdiff;
pub mod zdiffstore;
pub mod zincrby;
pub mod zinter;
pub mod zintercard;
pub mod zinterstore;
pub mod zlexcount;
pub mod zmpop;
pub mod zmscore;
pub mod zpopmax;
pub mod zpopmin;
pub mod zrandmember;
pub mod zrange;
pub mod zrangebylex;
pub mod zrangebyscore;
pub mod zrangestore;
pub mod zrank;
pub mod zrem;
pub mod zremrangebylex;
pub mod zremrangebyrank;
pub mod zremrangebyscore;
pub mod zrevrange;
pub mod zrevrangebylex;
pub mod zrevrangebyscore;
pub mod zrevrank;
pub mod zscore;
pub mod zsetops;
pub mod xack;
pub mod xadd;
pub mod xautoclaim;
pub mod xclaim;
pub mod xdel;
pub mod xgroup;
pub mod xinfo;
pub mod xlen;
pub mod xpending;
pub mod xrange;
pub mod xread;
pub mod xreadgroup;
pub mod xrevrange;
pub mod xsetid;
pub mod xtrim;
pub mod stream_util;
pub mod zunion;
pub mod zunionstore;
