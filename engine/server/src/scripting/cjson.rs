//! The `cjson` library Redis' scripts have (lua-cjson 2.1): `encode`, `decode`, `null` and
//! the settings scripts call (`encode_max_depth`, `decode_max_depth`,
//! `encode_invalid_numbers`, `encode_keep_buffer`, ...), with lua-cjson's rules: a table whose
//! keys are all positive integers is an array (unless excessively sparse), numbers print as
//! `%.14g`, `/` is escaped, JSON null decodes to `cjson.null`.

use super::libs::lib_fn;
use mlua::{LightUserData, Lua, Result, Table, Value};
use std::cell::RefCell;
use std::rc::Rc;

struct Config {
    encode_max_depth: usize,
    decode_max_depth: usize,
    encode_invalid_numbers: bool,
    decode_invalid_numbers: bool,
    /// Significant digits of encoded numbers (`encode_number_precision`, 1..14).
    precision: usize,
    /// `encode_sparse_array(convert, ratio, safe)`.
    sparse_convert: bool,
    sparse_ratio: usize,
    sparse_safe: usize,
}

fn err(text: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(text.into())
}

/// C's `%.<precision>g`, as lua-cjson prints numbers (14 digits unless set otherwise).
pub fn fmt_g(n: f64, precision: usize) -> String {
    if n.is_nan() {
        return if n.is_sign_negative() { "-nan".into() } else { "nan".into() };
    }
    if n.is_infinite() {
        return if n > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if n == 0.0 {
        return if n.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let p = precision.max(1) as i32;
    let sci = format!("{n:.*e}", (p - 1) as usize);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if (-4..p).contains(&exp) {
        trim(&format!("{n:.*}", (p - 1 - exp) as usize))
    } else {
        format!("{}e{}{:02}", trim(mantissa), if exp < 0 { '-' } else { '+' }, exp.abs())
    }
}

fn number_of(v: &Value) -> Option<f64> {
    match v {
        Value::Integer(i) => Some(*i as f64),
        Value::Number(n) => Some(*n),
        _ => None,
    }
}

fn is_null(v: &Value) -> bool {
    matches!(v, Value::LightUserData(LightUserData(p)) if p.is_null())
}

fn encode_string(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    for &c in s {
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'/' => out.extend_from_slice(b"\\/"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            c if c < 0x20 || c == 0x7f => out.extend_from_slice(format!("\\u{c:04x}").as_bytes()),
            c => out.push(c),
        }
    }
    out.push(b'"');
}

fn encode_number(out: &mut Vec<u8>, n: f64, cfg: &Config) -> Result<()> {
    if !n.is_finite() && !cfg.encode_invalid_numbers {
        return Err(err("Cannot serialise number: must not be NaN or Inf"));
    }
    out.extend_from_slice(fmt_g(n, cfg.precision).as_bytes());
    Ok(())
}

/// lua-cjson's array test: Some(length) when every key is a positive integer and the array is
/// not excessively sparse (by default max > 2 * items and max > 10 is an error), None for an
/// object.
fn array_length(t: &Table, cfg: &Config) -> Result<Option<usize>> {
    let (mut max, mut items) = (0f64, 0usize);
    for pair in t.clone().pairs::<Value, Value>() {
        let (k, _) = pair?;
        match number_of(&k) {
            Some(n) if n >= 1.0 && n.floor() == n => {
                max = max.max(n);
                items += 1;
            }
            _ => return Ok(None),
        }
    }
    if cfg.sparse_ratio > 0 && max > cfg.sparse_safe as f64 && max > (items * cfg.sparse_ratio) as f64 {
        if cfg.sparse_convert {
            return Ok(None);
        }
        return Err(err("Cannot serialise table: excessively sparse array"));
    }
    Ok(if items == 0 { None } else { Some(max as usize) })
}

fn encode_value(out: &mut Vec<u8>, v: &Value, cfg: &Config, depth: usize) -> Result<()> {
    match v {
        Value::Nil => out.extend_from_slice(b"null"),
        v if is_null(v) => out.extend_from_slice(b"null"),
        Value::Boolean(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Value::Integer(_) | Value::Number(_) => encode_number(out, number_of(v).unwrap_or(0.0), cfg)?,
        Value::String(s) => encode_string(out, &s.as_bytes()),
        Value::Table(t) => {
            let depth = depth + 1;
            if depth > cfg.encode_max_depth {
                return Err(err(format!("Cannot serialise, excessive nesting ({depth})")));
            }
            match array_length(t, cfg)? {
                Some(len) => {
                    out.push(b'[');
                    for i in 1..=len {
                        if i > 1 {
                            out.push(b',');
                        }
                        encode_value(out, &t.raw_get::<Value>(i)?, cfg, depth)?;
                    }
                    out.push(b']');
                }
                None => {
                    out.push(b'{');
                    let mut first = true;
                    for pair in t.clone().pairs::<Value, Value>() {
                        let (k, val) = pair?;
                        if !first {
                            out.push(b',');
                        }
                        first = false;
                        match &k {
                            Value::String(s) => encode_string(out, &s.as_bytes()),
                            k if number_of(k).is_some() => {
                                let n = number_of(k).unwrap_or(0.0);
                                if !n.is_finite() && !cfg.encode_invalid_numbers {
                                    return Err(err("Cannot serialise number: must not be NaN or Inf"));
                                }
                                encode_string(out, fmt_g(n, cfg.precision).as_bytes());
                            }
                            other => return Err(err(format!("Cannot serialise {}: table key must be a number or string", other.type_name()))),
                        }
                        out.push(b':');
                        encode_value(out, &val, cfg, depth)?;
                    }
                    out.push(b'}');
                }
            }
        }
        other => return Err(err(format!("Cannot serialise {}: type not supported", other.type_name()))),
    }
    Ok(())
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    lua: &'a Lua,
    cfg: &'a Config,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.pos < self.s.len() && matches!(self.s[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
    }

    fn fail<T>(&self, expected: &str) -> Result<T> {
        let found = match self.s.get(self.pos) {
            None => "T_END",
            Some(b'{') => "T_OBJ_BEGIN",
            Some(b'}') => "T_OBJ_END",
            Some(b'[') => "T_ARR_BEGIN",
            Some(b']') => "T_ARR_END",
            Some(b',') => "T_COMMA",
            Some(b':') => "T_COLON",
            Some(b'"') => "T_STRING",
            Some(c) if *c == b'-' || c.is_ascii_digit() => "T_NUMBER",
            _ if self.s[self.pos..].starts_with(b"true") || self.s[self.pos..].starts_with(b"false") => "T_BOOLEAN",
            _ if self.s[self.pos..].starts_with(b"null") => "T_NULL",
            _ => "invalid token",
        };
        Err(err(format!("Expected {expected} but found {found} at character {}", self.pos + 1)))
    }

    fn value(&mut self, depth: usize) -> Result<Value> {
        self.ws();
        let rest = &self.s[self.pos..];
        match rest.first() {
            Some(b'{') | Some(b'[') => {
                let depth = depth + 1;
                if depth > self.cfg.decode_max_depth {
                    return Err(err(format!("Found too many nested data structures ({depth}) at character {}", self.pos + 1)));
                }
                if rest[0] == b'{' {
                    self.object(depth)
                } else {
                    self.array(depth)
                }
            }
            Some(b'"') => Ok(Value::String(self.lua.create_string(self.string()?)?)),
            _ if rest.starts_with(b"true") => {
                self.pos += 4;
                Ok(Value::Boolean(true))
            }
            _ if rest.starts_with(b"false") => {
                self.pos += 5;
                Ok(Value::Boolean(false))
            }
            _ if rest.starts_with(b"null") => {
                self.pos += 4;
                Ok(Value::LightUserData(LightUserData(std::ptr::null_mut())))
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => self.number(),
            _ if self.cfg.decode_invalid_numbers && (rest.starts_with(b"nan") || rest.starts_with(b"inf")) => self.number(),
            _ => self.fail("value"),
        }
    }

    fn number(&mut self) -> Result<Value> {
        let start = self.pos;
        while self.pos < self.s.len() && matches!(self.s[self.pos], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9' | b'a'..=b'z') {
            self.pos += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.pos]).unwrap_or("");
        match text.parse::<f64>() {
            Ok(n) => Ok(Value::Number(n)),
            Err(_) => {
                self.pos = start;
                self.fail("value")
            }
        }
    }

    fn string(&mut self) -> Result<Vec<u8>> {
        let start = self.pos;
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            let Some(&c) = self.s.get(self.pos) else {
                self.pos = start;
                return Err(err(format!("Expected value but found unexpected end of string at character {}", start + 1)));
            };
            self.pos += 1;
            match c {
                b'"' => return Ok(out),
                b'\\' => {
                    let Some(&e) = self.s.get(self.pos) else { return self.fail("value") };
                    self.pos += 1;
                    match e {
                        b'"' | b'\\' | b'/' => out.push(e),
                        b'b' => out.push(0x08),
                        b'f' => out.push(0x0c),
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'u' => {
                            let mut cp = self.hex4().ok_or_else(|| err(format!("Expected value but found invalid unicode escape code at character {}", start + 1)))?;
                            if (0xd800..0xdc00).contains(&cp) && self.s[self.pos..].starts_with(b"\\u") {
                                self.pos += 2;
                                let low = self.hex4().unwrap_or(0);
                                cp = 0x10000 + ((cp - 0xd800) << 10) + (low.wrapping_sub(0xdc00) & 0x3ff);
                            }
                            let ch = char::from_u32(cp).unwrap_or('\u{fffd}');
                            out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
                        }
                        _ => return Err(err(format!("Expected value but found invalid escape code at character {}", start + 1))),
                    }
                }
                c => out.push(c),
            }
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let h = self.s.get(self.pos..self.pos + 4)?;
        let v = u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()?;
        self.pos += 4;
        Some(v)
    }

    fn object(&mut self, depth: usize) -> Result<Value> {
        self.pos += 1;
        let t = self.lua.create_table()?;
        self.ws();
        if self.s.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Ok(Value::Table(t));
        }
        loop {
            self.ws();
            if self.s.get(self.pos) != Some(&b'"') {
                return self.fail("object key string");
            }
            let key = self.string()?;
            self.ws();
            if self.s.get(self.pos) != Some(&b':') {
                return self.fail("colon");
            }
            self.pos += 1;
            let v = self.value(depth)?;
            t.raw_set(self.lua.create_string(&key)?, v)?;
            self.ws();
            match self.s.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Value::Table(t));
                }
                _ => return self.fail("comma or object end"),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value> {
        self.pos += 1;
        let t = self.lua.create_table()?;
        self.ws();
        if self.s.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Ok(Value::Table(t));
        }
        let mut i = 1;
        loop {
            let v = self.value(depth)?;
            t.raw_set(i, v)?;
            i += 1;
            self.ws();
            match self.s.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Value::Table(t));
                }
                _ => return self.fail("comma or array end"),
            }
        }
    }
}

pub fn install(lua: &Lua) -> Result<Table> {
    let cfg = Rc::new(RefCell::new(Config {
        encode_max_depth: 1000,
        decode_max_depth: 1000,
        encode_invalid_numbers: false,
        decode_invalid_numbers: true,
        precision: 14,
        sparse_convert: false,
        sparse_ratio: 2,
        sparse_safe: 10,
    }));
    let cjson = lua.create_table()?;
    let c = cfg.clone();
    cjson.raw_set(
        "encode",
        lib_fn(lua, move |lua, v: Value| {
            let mut out = Vec::new();
            encode_value(&mut out, &v, &c.borrow(), 0)?;
            lua.create_string(&out)
        })?,
    )?;
    let c = cfg.clone();
    cjson.raw_set(
        "decode",
        lib_fn(lua, move |lua, s: mlua::LuaString| {
            let bytes = s.as_bytes();
            let cfg = c.borrow();
            let mut p = Parser { s: &bytes, pos: 0, lua, cfg: &cfg };
            let v = p.value(0)?;
            p.ws();
            if p.pos < p.s.len() {
                return p.fail("the end");
            }
            Ok(v)
        })?,
    )?;
    cjson.raw_set("null", Value::LightUserData(LightUserData(std::ptr::null_mut())))?;
    // Settings: a number sets (and returns) the value, no argument returns it.
    type Field = fn(&mut Config) -> &mut usize;
    for (name, field) in [("encode_max_depth", (|c: &mut Config| &mut c.encode_max_depth) as Field), ("decode_max_depth", |c: &mut Config| &mut c.decode_max_depth)] {
        let c = cfg.clone();
        cjson.raw_set(
            name,
            lib_fn(lua, move |_, v: Option<f64>| {
                let mut cfg = c.borrow_mut();
                if let Some(n) = v {
                    if !(1.0..=2147483647.0).contains(&n) {
                        return Err(err(format!("bad argument #1 to '{name}' (expected integer between 1 and 2147483647)")));
                    }
                    *field(&mut cfg) = n as usize;
                }
                Ok(*field(&mut cfg) as f64)
            })?,
        )?;
    }
    type Flag = fn(&mut Config) -> &mut bool;
    for (name, field) in [("encode_invalid_numbers", (|c: &mut Config| &mut c.encode_invalid_numbers) as Flag), ("decode_invalid_numbers", |c: &mut Config| &mut c.decode_invalid_numbers)] {
        let c = cfg.clone();
        cjson.raw_set(
            name,
            lib_fn(lua, move |_, v: Value| {
                let mut cfg = c.borrow_mut();
                match v {
                    Value::Boolean(b) => *field(&mut cfg) = b,
                    Value::String(s) if s.as_bytes().as_ref() == b"on" => *field(&mut cfg) = true,
                    Value::String(s) if s.as_bytes().as_ref() == b"off" => *field(&mut cfg) = false,
                    _ => {}
                }
                Ok(*field(&mut cfg))
            })?,
        )?;
    }
    let c = cfg.clone();
    cjson.raw_set(
        "encode_number_precision",
        lib_fn(lua, move |_, v: Option<f64>| {
            let mut cfg = c.borrow_mut();
            if let Some(n) = v {
                if !(1.0..=14.0).contains(&n) {
                    return Err(err("bad argument #1 to 'encode_number_precision' (expected integer between 1 and 14)"));
                }
                cfg.precision = n as usize;
            }
            Ok(cfg.precision as f64)
        })?,
    )?;
    let c = cfg.clone();
    cjson.raw_set(
        "encode_sparse_array",
        lib_fn(lua, move |_, (convert, ratio, safe): (Option<bool>, Option<f64>, Option<f64>)| {
            let mut cfg = c.borrow_mut();
            if let Some(b) = convert {
                cfg.sparse_convert = b;
            }
            if let Some(r) = ratio {
                cfg.sparse_ratio = r.max(0.0) as usize;
            }
            if let Some(s) = safe {
                cfg.sparse_safe = s.max(0.0) as usize;
            }
            Ok((cfg.sparse_convert, cfg.sparse_ratio as f64, cfg.sparse_safe as f64))
        })?,
    )?;
    // The encoder keeps no buffer between calls: there is nothing to keep or free.
    cjson.raw_set("encode_keep_buffer", lib_fn(lua, |_, v: Option<bool>| Ok(v.unwrap_or(true)))?)?;
    Ok(cjson)
}
