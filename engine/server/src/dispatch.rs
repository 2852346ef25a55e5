//! From arguments to reply: look the command up in the table, check arity and
//! authentication, refuse the platform's commands under managed mode
//! (`platform_commands.rs`), run its handler (a panic becomes an error reply), count it for INFO.

use crate::client::Session;
use crate::cmd::Ctx;
use crate::registry::registry;
use crate::resp::{Args, OwnedArgs, Reply};
use crate::server::Shared;
use crate::stats::LocalStats;
use crate::table::flag;
use basalt_storage::Lsn;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

/// What one command left for the pipeline: whether it wrote, and where in the log.
#[derive(Default, Clone, Copy)]
pub struct Outcome {
    pub lsn: Option<Lsn>,
    /// What the command's reads saw, for its reply to wait for (`basalt_storage::seen`): 0
    /// nothing, `Lsn::MAX` the log's end when the reply goes (a read of other clients' writes
    /// must not overtake them).
    pub read: Lsn,
}

fn unknown_command(args: &Args<'_>) -> String {
    // Redis: "unknown command '%.128s', with args beginning with: " + "'%.*s' " per argument
    // while the list is shorter than 128 characters.
    let name = String::from_utf8_lossy(args.get(0));
    let name: String = name.chars().take(128).collect();
    let mut listed = String::new();
    for arg in args.iter().skip(1) {
        if listed.len() >= 128 {
            break;
        }
        let room = 128 - listed.len();
        let text = String::from_utf8_lossy(arg);
        let mut cut = text.len().min(room);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        listed.push('\'');
        listed.push_str(&text[..cut]);
        listed.push_str("' ");
    }
    format!("ERR unknown command '{name}', with args beginning with: {listed}")
}

/// Refuses a command before it runs: counted as rejected, and inside MULTI the transaction
/// is flagged so that EXEC answers EXECABORT (as Redis' `rejectCommand`).
fn reject(shared: &Shared, session: &mut Session, reply: &mut Reply, index: Option<usize>, text: &str) -> Outcome {
    if let Some(index) = index {
        shared.stats.record_rejected(index);
    }
    shared.stats.error_replies.fetch_add(1, Relaxed);
    if let Some(multi) = session.multi.as_mut() {
        multi.aborted = true;
    }
    reply.error(text);
    Outcome::default()
}

/// Runs one command and writes its reply.
pub fn execute(
    shared: &Shared,
    session: &mut Session,
    reply: &mut Reply,
    args: Args<'_>,
    local: &mut LocalStats,
) -> Outcome {
    let reg = registry();
    let stats = &shared.stats;
    local.count_command();
    let Some(mut index) = reg.lookup(args.get(0)) else {
        stats.unknown_commands.fetch_add(1, Relaxed);
        return reject(shared, session, reply, None, &unknown_command(&args));
    };
    let top = reg.entries[index].spec;
    if !top.subcommands.is_empty() && (args.len() >= 2 || top.handler.is_none()) {
        // A container (CLIENT, CONFIG, COMMAND): the second argument picks the subcommand.
        let container = &reg.entries[index];
        if args.len() < 2 {
            let text = format!("ERR wrong number of arguments for '{}' command", container.fullname);
            return reject(shared, session, reply, Some(index), &text);
        }
        match reg.lookup_sub(index, args.get(1)) {
            Some(sub) => index = sub,
            None => {
                let sub = String::from_utf8_lossy(args.get(1));
                let sub: String = sub.chars().take(128).collect();
                let text =
                    format!("ERR unknown subcommand '{sub}'. Try {} HELP.", container.spec.name.to_ascii_uppercase());
                return reject(shared, session, reply, Some(index), &text);
            }
        }
    }
    let entry = &reg.entries[index];
    let spec = entry.spec;
    if !spec.arity_ok(args.len()) {
        let text = format!("ERR wrong number of arguments for '{}' command", entry.fullname);
        return reject(shared, session, reply, Some(index), &text);
    }
    if session.user.is_none() && spec.flags & flag::NO_AUTH == 0 && shared.auth.requires_auth() {
        return reject(shared, session, reply, Some(index), "NOAUTH Authentication required.");
    }
    if session.multi.is_some() && spec.flags & flag::NO_MULTI != 0 {
        return reject(shared, session, reply, Some(index), "ERR Command not allowed inside a transaction");
    }
    {
        let user = session.user.as_deref().unwrap_or("default");
        if let Some(text) = crate::platform_commands::refusal(index, user, &args, shared.managed_mode) {
            return reject(shared, session, reply, Some(index), &text);
        }
    }
    if spec.flags & flag::NO_AUTH == 0 {
        if let Some(acl) = shared.auth.acl() {
            if let Err(denied) = acl.permit(session.user.as_deref().unwrap_or("default"), index, &args) {
                return reject(shared, session, reply, Some(index), &denied.to_string());
            }
        }
    }
    if spec.flags & flag::WRITE != 0 {
        if let Some(text) = shared.repl.write_refusal() {
            return reject(shared, session, reply, Some(index), text);
        }
    }
    let top_name = reg.entries[entry.parent.unwrap_or(index)].spec.name;
    if !reply.resp3 && session.subscribed() && !crate::pubsub::ALLOWED_WHILE_SUBSCRIBED.contains(&top_name) {
        let text = format!(
            "ERR Can't execute '{}': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context",
            entry.fullname
        );
        return reject(shared, session, reply, Some(index), &text);
    }
    // A script's own commands (and EXEC's) run on the thread that holds the run lock: the
    // script being busy never refuses them.
    if spec.flags & flag::ALLOW_BUSY == 0 && shared.scripts.busy() && !crate::multi::in_transaction() {
        // Refused before queueing, so a transaction with a command that met a busy script
        // never runs; an EXEC that meets one discards its transaction (Redis 7).
        if session.multi.is_some() && top_name == "exec" {
            session.multi = None;
            session.unwatch(&shared.db);
            let text = format!("EXECABORT Transaction discarded because of: {}", crate::multi::BUSY_TEXT);
            return reject(shared, session, reply, Some(index), &text);
        }
        return reject(shared, session, reply, Some(index), crate::multi::BUSY_TEXT);
    }
    session.handle.last_command.store(index, Relaxed);
    if let Some(multi) = session.multi.as_mut() {
        if !crate::multi::RUN_IN_MULTI.contains(&top_name) {
            multi.queued.push(OwnedArgs::copy_of(&args));
            reply.simple("QUEUED");
            return Outcome::default();
        }
    }
    run(shared, session, reply, args, local, index)
}

/// Runs a command already looked up and checked (EXEC runs its queue through here).
pub fn run(
    shared: &Shared,
    session: &mut Session,
    reply: &mut Reply,
    args: Args<'_>,
    local: &mut LocalStats,
    index: usize,
) -> Outcome {
    let entry = &registry().entries[index];
    let spec = entry.spec;
    let Some(handler) = spec.handler else {
        return Outcome::default();
    };
    let _running = if spec.flags & flag::EXCLUSIVE == 0 {
        match crate::multi::enter(shared, spec.flags & flag::ALLOW_BUSY != 0) {
            Ok(guard) => Some(guard),
            Err(crate::multi::Busy) => {
                local.count_error();
                local.record_call(index, 0, true);
                reply.error(crate::multi::BUSY_TEXT);
                return Outcome::default();
            }
        }
    } else {
        None
    };
    let exact = spec.flags & flag::EXACT_READS != 0;
    if exact {
        // Another command on this thread may have left a note.
        basalt_storage::seen::take();
    }
    let start = Instant::now();
    let mark = reply.out.len();
    let mut ctx = Ctx { shared, session, reply, lsn: None, index, stats: local, block: None };
    crate::pubsub::notify::before_command();
    let result = catch_unwind(AssertUnwindSafe(|| handler(&mut ctx, args)));
    crate::pubsub::notify::after_command(&shared.pubsub, &entry.fullname, &args);
    let lsn = ctx.lsn;
    let block = ctx.block.take();
    if result.as_ref().is_ok_and(|r| r.is_ok()) {
        session.blocked = block;
    }
    let usec = start.elapsed().as_micros() as u64;
    let failed = match result {
        Ok(Ok(())) => false,
        Ok(Err(e)) => {
            reply.out.truncate(mark);
            reply.error(&e.to_string());
            true
        }
        Err(_) => {
            reply.out.truncate(mark);
            reply.error("ERR internal error while running the command");
            eprintln!("basalt-server: internal error in '{}' (the connection goes on)", entry.fullname);
            true
        }
    };
    if failed {
        local.count_error();
    }
    local.record_call(index, usec, failed);
    if let Some(managed) = shared.managed.get() {
        managed.metrics.observe_resp(index, usec, spec.flags);
    }
    if shared.slowlog.is_slow(usec) {
        let all: Vec<&[u8]> = args.iter().collect();
        let name = session.handle.meta.lock().unwrap_or_else(|e| e.into_inner()).name.clone().unwrap_or_default();
        shared.slowlog.record(&all, usec, session.handle.addr.to_string(), name);
    }
    // A write that changed nothing (SETNX of a key that exists, HSETNX of a field that
    // exists, LPUSHX of a missing key) answered from what it read: it waits as a read does.
    let read = if exact {
        basalt_storage::seen::take()
    } else if spec.flags & flag::READONLY != 0 || (spec.flags & flag::WRITE != 0 && lsn.is_none()) {
        Lsn::MAX
    } else {
        0
    };
    Outcome { lsn, read }
}
