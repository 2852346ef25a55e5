//! Replies between RESP and Lua, as Redis converts them. RESP2: integer <-> number, bulk <->
//! string, null -> false, status <-> `{ok=...}`, error <-> `{err=...}`, array <-> table.
//! RESP3 (a script that called `redis.setresp(3)`): map -> `{map={...}}`, set ->
//! `{set={member=true}}`, double -> `{double=n}`, big number -> `{big_number='...'}`,
//! verbatim -> `{verbatim_string={format=..., string=...}}`, boolean <-> boolean, null -> nil;
//! attributes are read and dropped. Going back, each of those tables is written in the
//! client's own protocol (a map is a flat array to a RESP2 client).

use crate::resp::Reply;
use mlua::{Lua, Table, Value};

/// A reply nested deeper than this is cut with Redis' "reached lua stack limit" (Redis meets
/// its Lua stack's bound; here the bound is the thread's stack, each level a few frames of
/// Rust, so a table that holds itself stops long before a debug build's 2 MB run out).
const MAX_REPLY_DEPTH: usize = 200;

/// The Lua value of one RESP2 or RESP3 reply at the start of `bytes`, and its length.
pub fn resp_to_lua(lua: &Lua, bytes: &[u8]) -> mlua::Result<(Value, usize)> {
    let line_end = bytes.windows(2).position(|w| w == b"\r\n").ok_or_else(|| mlua::Error::runtime("short reply"))?;
    let line = &bytes[1..line_end];
    let after = line_end + 2;
    let text = || String::from_utf8_lossy(line).into_owned();
    let number = || text().parse::<i64>().map_err(|_| mlua::Error::runtime("bad number in reply"));
    let tagged = |field: &str, value: Value| -> mlua::Result<Value> {
        let table = lua.create_table()?;
        table.raw_set(field, value)?;
        Ok(Value::Table(table))
    };
    Ok(match bytes[0] {
        b':' => (Value::Number(number()? as f64), after),
        b'+' => (Value::Table(single(lua, "ok", line)?), after),
        b'-' => (Value::Table(single(lua, "err", line)?), after),
        b'_' => (Value::Nil, after),
        b'#' => (Value::Boolean(line == b"t"), after),
        b',' => {
            let n = match line {
                b"inf" => f64::INFINITY,
                b"-inf" => f64::NEG_INFINITY,
                other => String::from_utf8_lossy(other).parse::<f64>().unwrap_or(f64::NAN),
            };
            (tagged("double", Value::Number(n))?, after)
        }
        b'(' => (tagged("big_number", Value::String(lua.create_string(line)?))?, after),
        b'$' | b'=' => match number()? {
            n if n < 0 => (Value::Boolean(false), after),
            n => {
                let body = &bytes[after..after + n as usize];
                let end = after + n as usize + 2;
                if bytes[0] == b'$' {
                    (Value::String(lua.create_string(body)?), end)
                } else {
                    // `=<len>\r\n<fmt>:<text>`: a three-letter format, then the text.
                    let (format, string) = body.split_at(body.len().min(3));
                    let verbatim = lua.create_table()?;
                    verbatim.raw_set("format", lua.create_string(format)?)?;
                    verbatim.raw_set("string", lua.create_string(string.get(1..).unwrap_or_default())?)?;
                    (tagged("verbatim_string", Value::Table(verbatim))?, end)
                }
            }
        },
        b'*' | b'~' | b'>' => match number()? {
            n if n < 0 => (Value::Boolean(false), after),
            n => {
                let table = lua.create_table()?;
                let mut at = after;
                for i in 1..=n as usize {
                    let (item, len) = resp_to_lua(lua, &bytes[at..])?;
                    if bytes[0] == b'~' {
                        table.raw_set(item, true)?;
                    } else {
                        table.raw_seti(i, item)?;
                    }
                    at += len;
                }
                let value = Value::Table(table);
                (if bytes[0] == b'~' { tagged("set", value)? } else { value }, at)
            }
        },
        b'%' | b'|' => {
            let table = lua.create_table()?;
            let mut at = after;
            for _ in 0..number()? {
                let (key, len) = resp_to_lua(lua, &bytes[at..])?;
                at += len;
                let (value, len) = resp_to_lua(lua, &bytes[at..])?;
                at += len;
                if !key.is_nil() {
                    table.raw_set(key, value)?;
                }
            }
            if bytes[0] == b'|' {
                // An attribute is not shown to scripts: the reply is what follows it.
                let (value, len) = resp_to_lua(lua, &bytes[at..])?;
                (value, at + len)
            } else {
                (tagged("map", Value::Table(table))?, at)
            }
        }
        other => return Err(mlua::Error::runtime(format!("unexpected reply type {:?}", other as char))),
    })
}

fn single(lua: &Lua, field: &str, text: &[u8]) -> mlua::Result<Table> {
    let table = lua.create_table()?;
    table.raw_set(field, lua.create_string(text)?)?;
    Ok(table)
}

/// Writes a script's result in the client's protocol (`reply.resp3`): number -> integer,
/// string -> bulk, `{ok=...}` -> status, `{err=...}` -> error, the RESP3 tables above, other
/// tables -> array up to the first nil. `script_resp3`: the script called `redis.setresp(3)`,
/// where a boolean is a boolean (RESP2 scripts: true -> 1, false -> null).
pub fn lua_to_reply(value: &Value, reply: &mut Reply, script_resp3: bool) {
    write_value(value, reply, script_resp3, 0)
}

fn write_value(value: &Value, reply: &mut Reply, script_resp3: bool, depth: usize) {
    match value {
        Value::Nil => reply.null(),
        Value::Boolean(b) if script_resp3 => reply.boolean(*b),
        Value::Boolean(false) => reply.null(),
        Value::Boolean(true) => reply.int(1),
        Value::Integer(n) => reply.int(*n),
        Value::Number(n) => reply.int(*n as i64),
        Value::String(s) => reply.bulk(&s.as_bytes()),
        Value::Table(_) if depth >= MAX_REPLY_DEPTH => reply.error("ERR reached lua stack limit"),
        Value::Table(t) => write_table(t, reply, script_resp3, depth),
        _ => reply.null(),
    }
}

fn write_table(t: &Table, reply: &mut Reply, script_resp3: bool, depth: usize) {
    let field = |name: &str| t.raw_get::<Value>(name).unwrap_or(Value::Nil);
    if let Value::String(err) = field("err") {
        reply.error(&err.to_string_lossy());
        return;
    }
    if let Value::String(ok) = field("ok") {
        reply.simple(&ok.to_string_lossy().replace(['\r', '\n'], " "));
        return;
    }
    if let Value::Integer(_) | Value::Number(_) = field("double") {
        reply.double(t.raw_get::<f64>("double").unwrap_or(0.0));
        return;
    }
    if let Value::String(digits) = field("big_number") {
        let digits: Vec<u8> = digits.as_bytes().iter().map(|&b| if b == b'\r' || b == b'\n' { b' ' } else { b }).collect();
        reply.big_number(&digits);
        return;
    }
    if let Value::Table(verbatim) = field("verbatim_string") {
        if let (Ok(Value::String(format)), Ok(Value::String(string))) =
            (verbatim.raw_get::<Value>("format"), verbatim.raw_get::<Value>("string"))
        {
            reply.verbatim_as(&format.as_bytes(), &string.as_bytes());
            return;
        }
    }
    if let Value::Table(map) = field("map") {
        reply.map(map.pairs::<Value, Value>().count());
        for (k, v) in map.pairs::<Value, Value>().flatten() {
            write_value(&k, reply, script_resp3, depth + 1);
            write_value(&v, reply, script_resp3, depth + 1);
        }
        return;
    }
    if let Value::Table(set) = field("set") {
        reply.set(set.pairs::<Value, Value>().count());
        for (k, _) in set.pairs::<Value, Value>().flatten() {
            write_value(&k, reply, script_resp3, depth + 1);
        }
        return;
    }
    // Counted, then written item by item: a live mlua value holds a slot of an auxiliary
    // Lua stack (at most 8,000 in Lua 5.1), so a long array is never held whole.
    let len = (1..).take_while(|&i| t.raw_get::<Value>(i).is_ok_and(|v| !v.is_nil())).count();
    reply.array(len);
    for i in 1..=len {
        write_value(&t.raw_get::<Value>(i).unwrap_or(Value::Nil), reply, script_resp3, depth + 1);
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
