//! The `cmsgpack` library Redis' scripts have (lua-cmsgpack 0.4): `pack(...)`, `unpack`,
//! `unpack_one`, `unpack_limit`, with its choices: integral numbers as the smallest integer
//! type, other numbers as float32 when exact else float64, a table whose keys are the numbers
//! 1..n as an array, nesting past 16 tables packed as nil.

use super::libs::lib_fn;
use mlua::{Lua, MultiValue, Result, Table, Value};

const MAX_NESTING: usize = 16;

fn err(text: &str) -> mlua::Error {
    mlua::Error::runtime(text.to_string())
}

/// A numeric key (numeric strings are map keys, as Redis' lua-cmsgpack packs them).
fn key_number(v: &Value) -> Option<f64> {
    match v {
        Value::Integer(i) => Some(*i as f64),
        Value::Number(n) => Some(*n),
        _ => None,
    }
}

fn pack_int(out: &mut Vec<u8>, n: i64) {
    if n >= 0 {
        match n {
            0..=127 => out.push(n as u8),
            128..=0xff => out.extend_from_slice(&[0xcc, n as u8]),
            0x100..=0xffff => {
                out.push(0xcd);
                out.extend_from_slice(&(n as u16).to_be_bytes());
            }
            0x1_0000..=0xffff_ffff => {
                out.push(0xce);
                out.extend_from_slice(&(n as u32).to_be_bytes());
            }
            _ => {
                out.push(0xcf);
                out.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
    } else if n >= -32 {
        out.push(n as i8 as u8);
    } else if n >= -128 {
        out.extend_from_slice(&[0xd0, n as i8 as u8]);
    } else if n >= -32768 {
        out.push(0xd1);
        out.extend_from_slice(&(n as i16).to_be_bytes());
    } else if n >= -2147483648 {
        out.push(0xd2);
        out.extend_from_slice(&(n as i32).to_be_bytes());
    } else {
        out.push(0xd3);
        out.extend_from_slice(&n.to_be_bytes());
    }
}

fn pack_number(out: &mut Vec<u8>, n: f64) {
    // lua-cmsgpack's IS_INT64_EQUIVALENT: not infinite and (int64)n == n.
    if (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&n) && (n as i64) as f64 == n {
        pack_int(out, n as i64);
    } else if (n as f32) as f64 == n || n.is_nan() {
        out.push(0xca);
        out.extend_from_slice(&(n as f32).to_be_bytes());
    } else {
        out.push(0xcb);
        out.extend_from_slice(&n.to_be_bytes());
    }
}

fn pack_len(out: &mut Vec<u8>, len: usize, fix: u8, fix_max: usize, tag16: u8) {
    if len <= fix_max {
        out.push(fix | len as u8);
    } else if len <= 0xffff {
        out.push(tag16);
        out.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        out.push(tag16 + 1);
        out.extend_from_slice(&(len as u32).to_be_bytes());
    }
}

fn pack_value(out: &mut Vec<u8>, v: &Value, level: usize) -> Result<()> {
    match v {
        Value::Boolean(b) => out.push(if *b { 0xc3 } else { 0xc2 }),
        Value::Integer(i) => pack_number(out, *i as f64),
        Value::Number(n) => pack_number(out, *n),
        Value::String(s) => {
            let b = s.as_bytes();
            if b.len() < 32 {
                out.push(0xa0 | b.len() as u8);
            } else if b.len() <= 0xff {
                out.extend_from_slice(&[0xd9, b.len() as u8]);
            } else if b.len() <= 0xffff {
                out.push(0xda);
                out.extend_from_slice(&(b.len() as u16).to_be_bytes());
            } else {
                out.push(0xdb);
                out.extend_from_slice(&(b.len() as u32).to_be_bytes());
            }
            out.extend_from_slice(&b);
        }
        Value::Table(t) if level < MAX_NESTING => pack_table(out, t, level)?,
        _ => out.push(0xc0),
    }
    Ok(())
}

fn pack_table(out: &mut Vec<u8>, t: &Table, level: usize) -> Result<()> {
    let (mut count, mut max, mut array) = (0usize, 0f64, true);
    for pair in t.clone().pairs::<Value, Value>() {
        let (k, _) = pair?;
        match key_number(&k) {
            Some(n) if n > 0.0 && n.floor() == n => {
                max = max.max(n);
                count += 1;
            }
            _ => {
                array = false;
                break;
            }
        }
    }
    if array && max == count as f64 {
        let len = t.raw_len();
        pack_len(out, len, 0x90, 15, 0xdc);
        for i in 1..=len {
            pack_value(out, &t.raw_get::<Value>(i)?, level + 1)?;
        }
    } else {
        // Counted, then packed pair by pair: mlua holds each live value in a slot of an
        // auxiliary Lua stack (at most 8,000 in Lua 5.1), so a map is never held whole.
        let mut len = 0;
        for pair in t.clone().pairs::<Value, Value>() {
            pair?;
            len += 1;
        }
        pack_len(out, len, 0x80, 15, 0xde);
        for pair in t.clone().pairs::<Value, Value>() {
            let (k, v) = pair?;
            pack_value(out, &k, level + 1)?;
            pack_value(out, &v, level + 1)?;
        }
    }
    Ok(())
}

/// Decoding failed: the input ended early, or holds a type lua-cmsgpack does not read.
enum Bad {
    Eof,
    Format,
    Lua(mlua::Error),
}

impl From<mlua::Error> for Bad {
    fn from(e: mlua::Error) -> Bad {
        Bad::Lua(e)
    }
}

struct Cursor<'a> {
    s: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> std::result::Result<&[u8], Bad> {
        let b = self.s.get(self.pos..self.pos + n).ok_or(Bad::Eof)?;
        self.pos += n;
        Ok(b)
    }

    fn be(&mut self, n: usize) -> std::result::Result<u64, Bad> {
        Ok(self.take(n)?.iter().fold(0u64, |acc, b| acc << 8 | *b as u64))
    }

    fn value(&mut self, lua: &Lua) -> std::result::Result<Value, Bad> {
        let tag = self.take(1)?[0];
        Ok(match tag {
            0x00..=0x7f => Value::Number(tag as f64),
            0x80..=0x8f => self.map(lua, (tag & 0x0f) as usize)?,
            0x90..=0x9f => self.array(lua, (tag & 0x0f) as usize)?,
            0xa0..=0xbf => self.string(lua, (tag & 0x1f) as usize)?,
            0xc0 => Value::Nil,
            0xc2 => Value::Boolean(false),
            0xc3 => Value::Boolean(true),
            0xc4 | 0xd9 => {
                let n = self.be(1)? as usize;
                self.string(lua, n)?
            }
            0xc5 | 0xda => {
                let n = self.be(2)? as usize;
                self.string(lua, n)?
            }
            0xc6 | 0xdb => {
                let n = self.be(4)? as usize;
                self.string(lua, n)?
            }
            0xca => Value::Number(f32::from_bits(self.be(4)? as u32) as f64),
            0xcb => Value::Number(f64::from_bits(self.be(8)?)),
            0xcc => Value::Number(self.be(1)? as f64),
            0xcd => Value::Number(self.be(2)? as f64),
            0xce => Value::Number(self.be(4)? as f64),
            0xcf => Value::Number(self.be(8)? as f64),
            0xd0 => Value::Number(self.be(1)? as u8 as i8 as f64),
            0xd1 => Value::Number(self.be(2)? as u16 as i16 as f64),
            0xd2 => Value::Number(self.be(4)? as u32 as i32 as f64),
            0xd3 => Value::Number(self.be(8)? as i64 as f64),
            0xdc => {
                let n = self.be(2)? as usize;
                self.array(lua, n)?
            }
            0xdd => {
                let n = self.be(4)? as usize;
                self.array(lua, n)?
            }
            0xde => {
                let n = self.be(2)? as usize;
                self.map(lua, n)?
            }
            0xdf => {
                let n = self.be(4)? as usize;
                self.map(lua, n)?
            }
            0xe0..=0xff => Value::Number(tag as i8 as f64),
            _ => return Err(Bad::Format),
        })
    }

    fn string(&mut self, lua: &Lua, n: usize) -> std::result::Result<Value, Bad> {
        let b = self.take(n)?;
        Ok(Value::String(lua.create_string(b)?))
    }

    fn array(&mut self, lua: &Lua, n: usize) -> std::result::Result<Value, Bad> {
        let t = lua.create_table()?;
        for i in 1..=n {
            let v = self.value(lua)?;
            t.raw_set(i, v)?;
        }
        Ok(Value::Table(t))
    }

    fn map(&mut self, lua: &Lua, n: usize) -> std::result::Result<Value, Bad> {
        let t = lua.create_table()?;
        for _ in 0..n {
            let k = self.value(lua)?;
            let v = self.value(lua)?;
            if k != Value::Nil {
                t.raw_set(k, v)?;
            }
        }
        Ok(Value::Table(t))
    }
}

/// lua-cmsgpack's `mp_unpack_full`: up to `limit` objects from `offset` (both 0: all of them,
/// without the offset in front).
fn unpack_full(lua: &Lua, s: &[u8], limit: i64, offset: i64) -> Result<MultiValue> {
    let decode_all = limit == 0 && offset == 0;
    if offset < 0 || limit < 0 {
        return Err(err(&format!("Invalid request to unpack with offset of {offset} and limit of {}.", s.len())));
    }
    if offset as usize > s.len() {
        return Err(err(&format!("Start offset {offset} greater than input length {}.", s.len())));
    }
    let limit = if decode_all { i64::MAX } else { limit };
    let mut c = Cursor { s, pos: offset as usize };
    let mut values = Vec::new();
    while c.pos < s.len() && (values.len() as i64) < limit {
        match c.value(lua) {
            Ok(v) => values.push(v),
            Err(Bad::Eof) => return Err(err("Missing bytes in input.")),
            Err(Bad::Format) => return Err(err("Bad data format in input.")),
            Err(Bad::Lua(e)) => return Err(e),
        }
    }
    if !decode_all {
        let next = if c.pos == s.len() { -1 } else { c.pos as i64 };
        values.insert(0, Value::Number(next as f64));
    }
    Ok(MultiValue::from_iter(values))
}

fn int_arg(args: &MultiValue, i: usize, default: Option<i64>) -> Result<i64> {
    match args.get(i) {
        Some(Value::Integer(n)) => Ok(*n),
        Some(Value::Number(n)) => Ok(*n as i64),
        None | Some(Value::Nil) if default.is_some() => Ok(default.unwrap_or(0)),
        _ => Err(err(&format!("bad argument #{} (number expected)", i + 1))),
    }
}

fn string_arg(args: &MultiValue) -> Result<Vec<u8>> {
    match args.front() {
        Some(Value::String(s)) => Ok(s.as_bytes().to_vec()),
        Some(Value::Integer(n)) => Ok(n.to_string().into_bytes()),
        _ => Err(err("bad argument #1 (string expected)")),
    }
}

pub fn install(lua: &Lua) -> Result<Table> {
    let m = lua.create_table()?;
    m.raw_set(
        "pack",
        lib_fn(lua, |lua, args: MultiValue| {
            if args.is_empty() {
                return Err(err("bad argument #0 to 'pack' (MessagePack pack needs input.)"));
            }
            let mut out = Vec::new();
            for v in args.iter() {
                pack_value(&mut out, v, 0)?;
            }
            lua.create_string(&out)
        })?,
    )?;
    m.raw_set("unpack", lib_fn(lua, |lua, args: MultiValue| unpack_full(lua, &string_arg(&args)?, 0, 0))?)?;
    m.raw_set(
        "unpack_one",
        lib_fn(lua, |lua, args: MultiValue| {
            let offset = int_arg(&args, 1, Some(0))?;
            unpack_full(lua, &string_arg(&args)?, 1, offset)
        })?,
    )?;
    m.raw_set(
        "unpack_limit",
        lib_fn(lua, |lua, args: MultiValue| {
            let limit = int_arg(&args, 1, None)?;
            let offset = int_arg(&args, 2, Some(0))?;
            unpack_full(lua, &string_arg(&args)?, limit, offset)
        })?,
    )?;
    Ok(m)
}
