//! FUNCTION LOAD libraries: `#!lua name=<library>` then Lua code that calls
//! `redis.register_function(name, callback)` or `redis.register_function{function_name=...,
//! callback=..., flags={...}}`. The code is kept and run again in each VM (one per network
//! thread) when the set of libraries changes.

use super::{Library, Scripts};
use crate::error::CmdError;
use mlua::{Function, Lua, Table, Value};
use std::collections::HashMap;

/// The library name from the first line, and the code after it (a blank line kept in its
/// place so that error line numbers match the text sent).
pub fn parse(code: &str) -> Result<(String, String), CmdError> {
    let (first, rest) = code.split_once('\n').unwrap_or((code, ""));
    let Some(meta) = first.strip_prefix("#!") else { return Err(CmdError::msg("ERR Missing library metadata")) };
    let mut parts = meta.split_whitespace();
    let engine = parts.next().unwrap_or("");
    if !engine.eq_ignore_ascii_case("lua") {
        return Err(CmdError::msg(format!("ERR Engine '{engine}' not found")));
    }
    let mut name = None;
    for part in parts {
        match part.split_once('=') {
            Some(("name", value)) => name = Some(value.to_string()),
            _ => return Err(CmdError::msg(format!("ERR Invalid metadata value given: {part}"))),
        }
    }
    let name = name.ok_or_else(|| CmdError::msg("ERR Library name was not given"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(CmdError::msg("ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long"));
    }
    Ok((name, format!("\n{rest}")))
}

/// Runs a library's code; returns what it registered: name, callback, whether `no-writes`.
pub fn register(lua: &Lua, body: &str) -> Result<Vec<(String, Function, bool)>, CmdError> {
    let lua_error = |e: mlua::Error| {
        let text = match e {
            mlua::Error::SyntaxError { message, .. } => message,
            mlua::Error::RuntimeError(message) => message,
            other => other.to_string(),
        };
        CmdError::msg(format!("ERR Error registering functions: {text}"))
    };
    if super::vm::is_binary_chunk(body.trim_start().as_bytes()) {
        return Err(CmdError::msg("ERR Error registering functions: binary chunks are refused, libraries are Lua source text"));
    }
    let state = super::vm::state(lua).map_err(lua_error)?;
    let registry = lua.create_table().map_err(lua_error)?;
    state.raw_set("registering", registry.clone()).map_err(lua_error)?;
    let ran = lua.load(body).set_name("@user_function").set_mode(mlua::chunk::ChunkMode::Text).exec();
    state.raw_set("registering", Value::Nil).map_err(lua_error)?;
    ran.map_err(lua_error)?;
    let mut functions = Vec::new();
    for pair in registry.pairs::<String, Table>() {
        let (name, entry) = pair.map_err(lua_error)?;
        let callback: Function = entry.raw_get(1).map_err(lua_error)?;
        let flags: Option<Table> = entry.raw_get(2).map_err(lua_error)?;
        let no_writes = flags
            .map(|t| t.sequence_values::<String>().filter_map(Result::ok).any(|f| f == "no-writes"))
            .unwrap_or(false);
        functions.push((name, callback, no_writes));
    }
    if functions.is_empty() {
        return Err(CmdError::msg("ERR No functions registered"));
    }
    Ok(functions)
}

/// Every library's functions, loaded into `lua`.
pub fn load_all(lua: &Lua, scripts: &Scripts) -> Result<HashMap<String, (Function, bool)>, CmdError> {
    let libraries: Vec<Library> = scripts.libraries.lock().unwrap_or_else(|e| e.into_inner()).values().cloned().collect();
    let mut all = HashMap::new();
    for library in libraries {
        for (name, callback, no_writes) in register(lua, &library.code)? {
            all.insert(name, (callback, no_writes));
        }
    }
    Ok(all)
}
