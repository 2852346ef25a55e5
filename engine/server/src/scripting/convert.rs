//! Replies between RESP2 and Lua, as Redis converts them: integer <-> number, bulk <-> string,
//! null -> false, status <-> `{ok=...}`, error <-> `{err=...}`, array <-> table.

use crate::resp::Reply;
use mlua::{Lua, Table, Value};

/// The Lua value of one RESP2 reply at the start of `bytes`, and its length.
pub fn resp_to_lua(lua: &Lua, bytes: &[u8]) -> mlua::Result<(Value, usize)> {
    let line_end = bytes.windows(2).position(|w| w == b"\r\n").ok_or_else(|| mlua::Error::runtime("short reply"))?;
    let line = &bytes[1..line_end];
    let after = line_end + 2;
    let text = || String::from_utf8_lossy(line).into_owned();
    let number = || text().parse::<i64>().map_err(|_| mlua::Error::runtime("bad number in reply"));
    Ok(match bytes[0] {
        b':' => (Value::Number(number()? as f64), after),
        b'+' => (Value::Table(single(lua, "ok", line)?), after),
        b'-' => (Value::Table(single(lua, "err", line)?), after),
        b'$' => match number()? {
            n if n < 0 => (Value::Boolean(false), after),
            n => {
                let n = n as usize;
                (Value::String(lua.create_string(&bytes[after..after + n])?), after + n + 2)
            }
        },
        b'*' => match number()? {
            n if n < 0 => (Value::Boolean(false), after),
            n => {
                let table = lua.create_table()?;
                let mut at = after;
                for i in 1..=n as usize {
                    let (item, len) = resp_to_lua(lua, &bytes[at..])?;
                    table.raw_seti(i, item)?;
                    at += len;
                }
                (Value::Table(table), at)
            }
        },
        other => return Err(mlua::Error::runtime(format!("unexpected reply type {:?}", other as char))),
    })
}

fn single(lua: &Lua, field: &str, text: &[u8]) -> mlua::Result<Table> {
    let table = lua.create_table()?;
    table.raw_set(field, lua.create_string(text)?)?;
    Ok(table)
}

/// Writes a script's result: number -> integer, string -> bulk, true -> 1, false/nil -> null,
/// `{ok=...}` -> status, `{err=...}` -> error, other tables -> array up to the first nil.
pub fn lua_to_reply(value: &Value, reply: &mut Reply) {
    match value {
        Value::Nil | Value::Boolean(false) => reply.null(),
        Value::Boolean(true) => reply.int(1),
        Value::Integer(n) => reply.int(*n),
        Value::Number(n) => reply.int(*n as i64),
        Value::String(s) => reply.bulk(&s.as_bytes()),
        Value::Table(t) => {
            if let Ok(Value::String(err)) = t.raw_get::<Value>("err") {
                reply.error(&err.to_string_lossy());
                return;
            }
            if let Ok(Value::String(ok)) = t.raw_get::<Value>("ok") {
                reply.simple(&ok.to_string_lossy().replace(['\r', '\n'], " "));
                return;
            }
            let items: Vec<Value> = (1..).map_while(|i| t.raw_get::<Value>(i).ok().filter(|v| !v.is_nil())).collect();
            reply.array(items.len());
            for item in &items {
                lua_to_reply(item, reply);
            }
        }
        _ => reply.null(),
    }
}

/// An argument of `redis.call` as bytes: strings as they are, numbers as Lua prints them.
pub fn arg_bytes(value: &Value) -> Option<Vec<u8>> {
    match value {
        Value::String(s) => Some(s.as_bytes().to_vec()),
        Value::Integer(n) => Some(n.to_string().into_bytes()),
        Value::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => Some(format!("{}", *n as i64).into_bytes()),
        Value::Number(n) => Some(format!("{n}").into_bytes()),
        _ => None,
    }
}
