//! One Lua VM per network thread, and running a script in it.
//!
//! A script runs holding the run lock exclusively (as EXEC) and inside `Db::atomically`, so
//! no other command interleaves and all its writes are one log record: what is logged are the
//! effects, so a replay never runs Lua and is deterministic. Its clock is stopped
//! (`Db::with_frozen_clock`), as Redis' is: a key does not expire between two of its commands.
//! `redis.call` goes through the
//! same dispatch as a client's command (arity, ACL, statistics), with a RESP2 reply that is
//! then converted to Lua. The sandbox is Redis 7's (`PRELUDE`): source text only, no loader
//! of other code, globals and library tables read-only; a VM's memory is bounded (`MEMORY_LIMIT`).

use super::convert::{arg_bytes, lua_to_reply, resp_to_lua};
use crate::cmd::Ctx;
use crate::dispatch;
use crate::error::{CmdError, CmdResult};
use crate::registry::registry;
use crate::resp::{OwnedArgs, Reply};
use crate::table::flag;
use mlua::chunk::ChunkMode;
use mlua::{Function, HookTriggers, Lua, LuaOptions, StdLib, Table, Value, VmState};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::Ordering::Relaxed;

/// The `redis` library, `pcall` around the script, and the sandbox as Redis 7 makes it: no
/// way to load code but the script's own text (`loadstring`, `load`, `string.dump`, `dofile`,
/// `loadfile` gone, with `print`, `setfenv`, `getfenv`, `newproxy` as Redis 7 removes them),
/// and the globals and every library table read-only (`lock`: Redis' `lua_enablereadonlytable`
/// is a patch of Lua's C; stock Lua 5.1 gets the same from an empty table that reads from a
/// table of its own through a metatable nobody can reach: `getmetatable` answers a read-only
/// view, `setmetatable` and `rawset` refuse a locked table). Returns the tables Rust writes:
/// the globals' own (`KEYS`, `ARGV`) and `state` (the `redis.call` of the running script, the
/// functions FUNCTION LOAD registers, the runner).
const PRELUDE: &str = r#"
local state = {}
redis.LOG_DEBUG, redis.LOG_VERBOSE, redis.LOG_NOTICE, redis.LOG_WARNING = 0, 1, 2, 3
redis.REPL_NONE, redis.REPL_AOF, redis.REPL_SLAVE, redis.REPL_REPLICA, redis.REPL_ALL = 0, 1, 2, 2, 3
-- The arguments reach Rust in one table: each value Rust holds takes a slot of a Lua stack
-- of at most 8,000, so a command of thousands of arguments (LPUSH of `unpack` of 7,999
-- values) is read from the table one argument at a time (Redis grows its stack with
-- lua_checkstack for the same reason).
function redis.call(...)
  local reply = state.raw(select('#', ...), {...})
  if type(reply) == 'table' and reply.err then error(reply) end
  return reply
end
function redis.pcall(...) return state.raw(select('#', ...), {...}) end
function redis.acl_check_cmd(...)
  local allowed = state.acl_check(select('#', ...), {...})
  if type(allowed) == 'table' then error(allowed) end
  return allowed
end
do
  local raw_sha1hex = redis.sha1hex
  function redis.sha1hex(...)
    if select('#', ...) ~= 1 then error({err = 'ERR wrong number of arguments'}) end
    return raw_sha1hex(...)
  end
end
function redis.register_function(a, b)
  local registry = state.registering
  if registry == nil then error('redis.register_function can only be called on FUNCTION LOAD command', 2) end
  local name, callback, flags
  if type(a) == 'table' then name, callback, flags = a.function_name, a.callback, a.flags else name, callback = a, b end
  if type(name) ~= 'string' or type(callback) ~= 'function' then error('wrong arguments given to redis.register_function', 2) end
  registry[name] = {callback, flags or {}}
end
function redis.error_reply(text) return {err = tostring(text)} end
function redis.status_reply(text) return {ok = tostring(text)} end
function redis.log() end
function redis.replicate_commands() return true end
function redis.set_repl() end
-- The protocol the script's own commands reply in (Redis' script client): 2 at each start.
function redis.setresp(...)
  if select('#', ...) ~= 1 then error({err = 'ERR redis.setresp() requires one argument.'}) end
  local resp = tonumber((...))
  if resp ~= 2 and resp ~= 3 then error({err = 'ERR RESP version must be 2 or 3.'}) end
  state.resp = resp
end
do
  local raw_pcall, raw_xpcall, raw_error = pcall, xpcall, error
  function state.run(f, ...) return raw_pcall(f, ...) end
  -- A script SCRIPT KILL stopped stays stopped: an error caught by pcall/xpcall is raised
  -- again once the kill is asked, so `while true do pcall(f) end` ends too (Redis makes its
  -- hook fire on every line after a kill for the same reason).
  local function unless_killed(ok, ...)
    if not ok and state.killed() then raw_error({err = 'ERR Script killed by user with SCRIPT KILL...'}, 0) end
    return ok, ...
  end
  pcall = function(...) return unless_killed(raw_pcall(...)) end
  xpcall = function(...) return unless_killed(raw_xpcall(...)) end
end
do
  -- Lua 5.1's unpack computes the count of a range in a C int: a range near 2^31 overflows,
  -- the C compiler has dropped the overflow check (signed overflow is undefined), and the
  -- process dies. Redis patched its copy; here a range too long for the Lua stack is refused
  -- before it reaches C, with the error Lua gives for such a range.
  local raw_unpack = unpack
  unpack = function(...)
    local t, i, j = ...
    if type(t) ~= 'table' then
      error("bad argument #1 to 'unpack' (table expected, got " .. (select('#', ...) == 0 and 'no value' or type(t)) .. ')', 2)
    end
    if (i == nil or type(i) == 'number') and (j == nil or type(j) == 'number') then
      local first, last = i or 1, j or #t
      if first <= last and last - first >= 8000 then error('too many results to unpack', 2) end
    end
    return raw_unpack(...)
  end
end
-- Bytecode is never loaded (CVE-2015-4335): the only code is the script's text.
loadfile, dofile, loadstring, load, print, setfenv, getfenv, newproxy = nil, nil, nil, nil, nil, nil, nil, nil
string.dump = nil
local globals
do
  local locked = setmetatable({}, {__mode = 'k'})
  local raw_next, raw_rawset, raw_setmetatable, raw_getmetatable, raw_error = next, rawset, setmetatable, getmetatable, error
  local function deny() raw_error('Attempt to modify a readonly table', 2) end
  -- What getmetatable answers for a locked table's metatable: a read-only view of it.
  local function view(mt)
    local v = {}
    locked[v] = true
    raw_setmetatable(v, {__index = mt, __newindex = deny, __metatable = v})
    return v
  end
  -- Empties `t` into a table of its own that it then reads from; writes to `t` are refused.
  local function lock(t, missing)
    local own = {}
    for k, v in raw_next, t do own[k] = v end
    for k in raw_next, own do raw_rawset(t, k, nil) end
    local mt = {__newindex = deny}
    if missing then
      mt.__index = function(_, k) local v = own[k] if v == nil then missing(k) end return v end
    else
      mt.__index = own
    end
    mt.__metatable = view(mt)
    locked[t] = true
    raw_setmetatable(t, mt)
    return own
  end
  setmetatable = function(t, mt)
    if locked[t] then raw_error('Attempt to modify a readonly table', 2) end
    return raw_setmetatable(t, mt)
  end
  rawset = function(t, k, v)
    if locked[t] then raw_error('Attempt to modify a readonly table', 2) end
    return raw_rawset(t, k, v)
  end
  -- The metatables of strings (their methods) and of the other basic types are read-only too.
  local string_mt = raw_getmetatable('')
  string_mt.__metatable = view(string_mt)
  for _, lib in ipairs({string, table, math, coroutine, redis, bit, cjson, cmsgpack}) do lock(lib) end
  globals = lock(_G, function(name)
    raw_error("Script attempted to access nonexistent global variable '" .. tostring(name) .. "'", 3)
  end)
end
return globals, state
"#;

/// A VM's memory bound, checked with SCRIPT KILL's (every `KILL_CHECK_EVERY` instructions):
/// past it the script fails with an error and the server goes on. Scripts hold keys' values
/// and replies, not the data set.
pub const MEMORY_LIMIT: usize = 256 << 20;
/// Lua's allocator refuses past this (one allocation too large for the check above, such as
/// `string.rep` of gigabytes, fails at once with `not enough memory`).
const ALLOCATOR_LIMIT: usize = 4 * MEMORY_LIMIT;

/// Instructions between two looks at SCRIPT KILL.
const KILL_CHECK_EVERY: u32 = 100_000;

struct Vm {
    lua: Lua,
    /// The registered functions of every library, as loaded for `library_generation`.
    library_functions: HashMap<String, (Function, bool)>,
    library_generation: u64,
    /// The server this VM was built for (tests run several servers on the same threads).
    owner: usize,
    generation: u64,
    functions: HashMap<String, Function>,
}

thread_local! {
    static VM: RefCell<Option<Vm>> = const { RefCell::new(None) };
}

fn new_vm(ctx: &Ctx<'_>) -> mlua::Result<Vm> {
    let lua = Lua::new_with(StdLib::TABLE | StdLib::STRING | StdLib::MATH, LuaOptions::default())?;
    let sha1hex = lua.create_function(|lua, text: mlua::LuaString| lua.create_string(super::sha1_hex(&text.as_bytes())))?;
    // The libraries Redis' Lua has besides the standard ones, before globals are protected.
    super::libs::install(&lua)?;
    let redis = lua.create_table()?;
    redis.raw_set("sha1hex", sha1hex)?;
    lua.globals().raw_set("redis", redis)?;
    let (globals, state): (Table, Table) = lua.load(PRELUDE).set_name("=prelude").set_mode(ChunkMode::Text).eval()?;
    let killed = ctx.shared.scripts.kill.clone();
    state.raw_set("killed", lua.create_function(move |_, ()| Ok(killed.load(Relaxed)))?)?;
    lua.set_named_registry_value(GLOBALS, globals)?;
    lua.set_named_registry_value(STATE, state)?;
    lua.set_memory_limit(ALLOCATOR_LIMIT)?;
    let kill = ctx.shared.scripts.kill.clone();
    lua.set_hook(HookTriggers::new().every_nth_instruction(KILL_CHECK_EVERY), move |lua, _| {
        if kill.load(Relaxed) {
            return Err(mlua::Error::runtime("ERR Script killed by user with SCRIPT KILL..."));
        }
        if lua.used_memory() > MEMORY_LIMIT {
            let _ = lua.gc_collect();
            if lua.used_memory() > MEMORY_LIMIT {
                return Err(mlua::Error::runtime(format!("ERR Script used more than {} MB of memory", MEMORY_LIMIT >> 20)));
            }
        }
        Ok(VmState::Continue)
    })?;
    Ok(Vm { lua, library_functions: HashMap::new(), library_generation: u64::MAX, owner: ctx.shared as *const _ as usize, generation: ctx.shared.scripts.generation.load(Relaxed), functions: HashMap::new() })
}

/// A full collection once the VM holds more than half its bound: a script that failed on the
/// bound (or left much garbage) does not leave the next one without memory.
fn reclaim(lua: &Lua) {
    if lua.used_memory() > MEMORY_LIMIT / 2 {
        let _ = lua.gc_collect();
    }
}

/// Registry names of the prelude's tables: the globals' own entries and `state`.
const GLOBALS: &str = "basalt.globals";
pub(super) const STATE: &str = "basalt.state";

/// The prelude's `state` table (FUNCTION LOAD sets `registering` there).
pub(super) fn state(lua: &Lua) -> mlua::Result<Table> {
    lua.named_registry_value(STATE)
}

/// Whether `code` is a binary (precompiled) chunk: Lua's signature starts with ESC.
pub fn is_binary_chunk(code: &[u8]) -> bool {
    code.first() == Some(&0x1b)
}

/// Compiles a script, text only; the error is worded as Redis 7 words it.
fn compile(lua: &Lua, body: &str) -> Result<Function, CmdError> {
    if is_binary_chunk(body.as_bytes()) {
        return Err(CmdError::msg("ERR Error compiling script (new function): user_script: binary chunks are refused, scripts are Lua source text"));
    }
    lua.load(body).set_name("@user_script").set_mode(ChunkMode::Text).into_function().map_err(|e| {
        let text = match e {
            mlua::Error::SyntaxError { message, .. } => message,
            other => other.to_string(),
        };
        CmdError::msg(format!("ERR Error compiling script (new function): {text}"))
    })
}

/// Runs `f` with this thread's Lua state (FUNCTION LOAD checks a library there).
pub fn with_lua<R>(ctx: &Ctx<'_>, f: impl FnOnce(&Lua) -> Result<R, CmdError>) -> Result<R, CmdError> {
    with_vm(ctx, |vm| f(&vm.lua))
}

/// Checks that `body` compiles (SCRIPT LOAD).
pub fn check_compiles(ctx: &Ctx<'_>, body: &str) -> CmdResult {
    with_vm(ctx, |vm| compile(&vm.lua, body).map(|_| ()))
}

fn with_vm<R>(ctx: &Ctx<'_>, f: impl FnOnce(&mut Vm) -> Result<R, CmdError>) -> Result<R, CmdError> {
    VM.with(|cell| {
        let mut slot = cell.try_borrow_mut().map_err(|_| CmdError::msg("ERR scripts cannot run scripts"))?;
        let owner = ctx.shared as *const _ as usize;
        let generation = ctx.shared.scripts.generation.load(Relaxed);
        if slot.as_ref().is_none_or(|vm| vm.owner != owner) {
            *slot = Some(new_vm(ctx).map_err(|e| CmdError::msg(format!("ERR cannot start Lua: {e}")))?);
        }
        let vm = slot.as_mut().expect("just made");
        reclaim(&vm.lua);
        if vm.generation != generation {
            vm.functions.clear();
            vm.generation = generation;
        }
        f(vm)
    })
}

/// What runs: a script (EVAL, EVALSHA) or a library function (FCALL).
#[derive(Clone, Copy)]
pub enum Target<'s> {
    Script { sha: &'s str, body: &'s str },
    Function { name: &'s str },
}

/// Runs `target` with `keys` and `argv`, alone and as one log record, and writes its result.
/// `read_only` (EVAL_RO, FCALL_RO): write commands are refused inside.
pub fn run(ctx: &mut Ctx<'_>, target: Target<'_>, keys: Vec<&[u8]>, argv: Vec<&[u8]>, read_only: bool) -> CmdResult {
    let shared = ctx.shared;
    // Marked running before the lock is taken, so that commands arriving meanwhile wait in
    // the loop that can answer BUSY rather than in the lock.
    shared.scripts.start();
    shared.scripts.read_only.store(read_only, Relaxed);
    // A SELECT inside the script is the script's own (Redis 7): the caller keeps its database.
    let caller_db = ctx.session.db;
    let outcome = crate::multi::blocking(|| {
        crate::multi::alone(shared, || shared.db.atomically(|| shared.db.with_frozen_clock(|| run_alone(ctx, target, &keys, &argv, read_only))))
    });
    shared.scripts.read_only.store(false, Relaxed);
    shared.scripts.stop();
    ctx.session.db = caller_db;
    ctx.session.handle.update_meta(|m| m.db = caller_db);
    let (result, lsn) = outcome?;
    ctx.wrote(if lsn == 0 { shared.db.last_lsn() } else { lsn });
    result
}

fn run_alone(ctx: &mut Ctx<'_>, target: Target<'_>, keys: &[&[u8]], argv: &[&[u8]], read_only: bool) -> CmdResult {
    let mut vm_slot = None;
    let libraries = &ctx.shared.scripts;
    with_vm(ctx, |vm| {
        let function = match target {
            Target::Script { sha, body } => match vm.functions.get(sha) {
                Some(f) => f.clone(),
                None => {
                    let f = compile(&vm.lua, body)?;
                    vm.functions.insert(sha.to_string(), f.clone());
                    f
                }
            },
            Target::Function { name } => {
                let generation = libraries.library_generation.load(Relaxed);
                if vm.library_generation != generation {
                    vm.library_functions = super::library::load_all(&vm.lua, libraries)?;
                    vm.library_generation = generation;
                }
                let Some((f, no_writes)) = vm.library_functions.get(name) else {
                    return Err(CmdError::msg("ERR Function not found"));
                };
                if read_only && !no_writes {
                    return Err(CmdError::msg("ERR Can not execute a script with write flag using *_ro command."));
                }
                if *no_writes {
                    libraries.read_only.store(true, Relaxed);
                }
                f.clone()
            }
        };
        vm_slot = Some((vm.lua.clone(), function));
        Ok(())
    })?;
    let (lua, function) = vm_slot.expect("set above");
    let is_function = matches!(target, Target::Function { .. });
    let lua_error = |e: mlua::Error| CmdError::msg(format!("ERR {e}"));
    let globals: Table = lua.named_registry_value(GLOBALS).map_err(lua_error)?;
    let state: Table = state(&lua).map_err(lua_error)?;
    let list = |items: &[&[u8]]| -> mlua::Result<Table> {
        let table = lua.create_table()?;
        for (i, item) in items.iter().enumerate() {
            table.raw_seti(i + 1, lua.create_string(item)?)?;
        }
        Ok(table)
    };
    let (keys, argv) = (list(keys).map_err(lua_error)?, list(argv).map_err(lua_error)?);
    if !is_function {
        globals.raw_set("KEYS", keys.clone()).map_err(lua_error)?;
        globals.raw_set("ARGV", argv.clone()).map_err(lua_error)?;
    }
    state.raw_set("resp", 2).map_err(lua_error)?;
    let runner: Function = state.raw_get("run").map_err(lua_error)?;
    let cell = RefCell::new(ctx);
    let outcome = lua.scope(|scope| {
        let raw = scope.create_function(|lua, (count, args): (usize, Table)| {
            call_from_script(lua, &mut cell.borrow_mut(), count, &args)
        })?;
        state.raw_set("raw", raw)?;
        let acl_check = scope.create_function(|lua, (count, args): (usize, Table)| {
            acl_check_from_script(lua, &mut cell.borrow_mut(), count, &args)
        })?;
        state.raw_set("acl_check", acl_check)?;
        let (ok, value): (bool, Value) =
            if is_function { runner.call((function, keys, argv))? } else { runner.call(function)? };
        let ctx = &mut **cell.borrow_mut();
        if ok {
            lua_to_reply(&value, ctx.reply, script_resp3(&state));
            return Ok(Ok(()));
        }
        let text = match &value {
            Value::Table(t) => match t.raw_get::<Value>("err")? {
                Value::String(err) => err.to_string_lossy(),
                _ => "ERR unknown error".to_string(),
            },
            Value::String(s) => format!("ERR {}", s.to_string_lossy()),
            Value::Error(e) => error_text(e),
            other => format!("ERR {other:?}"),
        };
        Ok(Err(CmdError::msg(text)))
    });
    let _ = state.raw_set("raw", Value::Nil);
    let _ = state.raw_set("acl_check", Value::Nil);
    reclaim(&lua);
    outcome.map_err(lua_error)?
}

/// The script called `redis.setresp(3)`.
fn script_resp3(state: &Table) -> bool {
    state.raw_get::<i64>("resp").is_ok_and(|resp| resp == 3)
}

/// The message of an error raised by Rust inside the script (SCRIPT KILL's, a bad argument).
fn error_text(e: &mlua::Error) -> String {
    match e {
        mlua::Error::RuntimeError(text) if text.starts_with("ERR ") => text.clone(),
        mlua::Error::CallbackError { cause, .. } => error_text(cause),
        other => format!("ERR {other}"),
    }
}

/// An `{err=...}` table: how the `redis` library hands a refusal to the script.
fn err_table(lua: &Lua, text: &str) -> mlua::Result<Value> {
    let table = lua.create_table()?;
    table.raw_set("err", text)?;
    Ok(Value::Table(table))
}

/// The `count` arguments in `args[1..=count]` (see the prelude), read one at a time; a
/// refusal worded as Redis' `luaArgsToRedisArgv`.
fn script_args(count: usize, args: &Table) -> mlua::Result<Result<OwnedArgs, &'static str>> {
    if count == 0 {
        return Ok(Err("ERR Please specify at least one argument for this redis lib call"));
    }
    let mut owned = OwnedArgs::new();
    for i in 1..=count {
        match arg_bytes(&args.raw_get::<Value>(i)?) {
            Some(bytes) => owned.push(&bytes),
            None => return Ok(Err("ERR Lua redis lib command arguments must be strings or integers")),
        }
    }
    Ok(Ok(owned))
}

/// The table index of a command and, for a container, of its subcommand.
fn lookup(command: &crate::resp::Args<'_>) -> Option<usize> {
    let reg = registry();
    let index = reg.lookup(command.get(0))?;
    if !reg.entries[index].subcommands.is_empty() && command.len() >= 2 {
        return Some(reg.lookup_sub(index, command.get(1)).unwrap_or(index));
    }
    Some(index)
}

/// `redis.acl_check_cmd`: whether the calling user may run the command with these
/// arguments (its keys included); an unknown command is an error.
fn acl_check_from_script(lua: &Lua, ctx: &mut Ctx<'_>, count: usize, args: &Table) -> mlua::Result<Value> {
    let owned = match script_args(count, args)? {
        Ok(owned) => owned,
        Err(text) => return err_table(lua, text),
    };
    let command = owned.args();
    let Some(index) = lookup(&command) else {
        return err_table(lua, "ERR Invalid command passed to redis.acl_check_cmd()");
    };
    let user = ctx.session.user.as_deref().unwrap_or("default");
    let allowed = ctx.shared.auth.acl().is_none_or(|acl| acl.permit(user, index, &command).is_ok());
    Ok(Value::Boolean(allowed))
}

/// `redis.call`/`redis.pcall`: runs one command for the script; an error is `{err=...}`.
fn call_from_script(lua: &Lua, ctx: &mut Ctx<'_>, count: usize, args: &Table) -> mlua::Result<Value> {
    let err = |text: &str| err_table(lua, text);
    let owned = match script_args(count, args)? {
        Ok(owned) => owned,
        Err(text) => return err(text),
    };
    let command = owned.args();
    let reg = registry();
    let Some(index) = lookup(&command) else {
        return err("ERR Unknown Redis command called from script");
    };
    let spec = reg.entries[index].spec;
    // Redis' scriptCall: arity first, with the script's wording, then the script checks.
    if !spec.arity_ok(command.len()) {
        return err("ERR Wrong number of args calling Redis command from script");
    }
    if spec.flags & flag::NOSCRIPT != 0 && !ctx.shared.scripts.deny_script_disabled.load(Relaxed) {
        return err("ERR This Redis command is not allowed from script");
    }
    if spec.is_write() {
        if ctx.shared.scripts.read_only.load(Relaxed) {
            return err("ERR Write commands are not allowed from read-only scripts.");
        }
        ctx.shared.scripts.wrote.store(true, Relaxed);
    }
    let mut reply = Reply::new();
    reply.resp3 = script_resp3(&state(lua)?);
    dispatch::execute(ctx.shared, ctx.session, &mut reply, command, ctx.stats);
    Ok(resp_to_lua(lua, &reply.out)?.0)
}
