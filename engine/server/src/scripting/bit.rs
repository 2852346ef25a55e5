//! The `bit` library Redis' scripts have (LuaBitOp 1.0): 32-bit operations on Lua numbers,
//! which arrive through the same double-to-int32 conversion LuaBitOp uses (add 2^52+2^51,
//! keep the low 32 bits), so results match Redis' for every input.

use super::libs::lib_fn;
use mlua::{Lua, MultiValue, Result, Table, Value};

/// LuaBitOp's `barg`: the low 32 bits of `n + 2^52 + 2^51`.
fn to_bits(lua: &Lua, v: &Value, arg: usize) -> Result<u32> {
    let n = match v {
        Value::Integer(i) => *i as f64,
        Value::Number(n) => *n,
        Value::String(s) => match s.to_str().ok().and_then(|t| t.trim().parse::<f64>().ok()) {
            Some(n) => n,
            None => return Err(type_error(lua, arg, v)),
        },
        _ => return Err(type_error(lua, arg, v)),
    };
    Ok(((n + 6_755_399_441_055_744.0).to_bits() & 0xffff_ffff) as u32)
}

fn type_error(_: &Lua, arg: usize, v: &Value) -> mlua::Error {
    let got = if matches!(v, Value::Nil) { "no value" } else { v.type_name() };
    mlua::Error::runtime(format!("bad argument #{arg} (number expected, got {got})"))
}

/// Results are signed 32-bit numbers, as LuaBitOp returns them.
fn ret(b: u32) -> Value {
    Value::Number(b as i32 as f64)
}

fn arg(lua: &Lua, args: &MultiValue, i: usize) -> Result<u32> {
    to_bits(lua, args.get(i).unwrap_or(&Value::Nil), i + 1)
}

/// `bit.band(x1 [,x2...])` and kin.
fn fold(lua: &Lua, args: MultiValue, op: fn(u32, u32) -> u32) -> Result<Value> {
    let mut acc = arg(lua, &args, 0)?;
    for i in 1..args.len() {
        acc = op(acc, arg(lua, &args, i)?);
    }
    Ok(ret(acc))
}

pub fn install(lua: &Lua) -> Result<Table> {
    let bit = lua.create_table()?;
    bit.raw_set("tobit", lib_fn(lua, |lua, args: MultiValue| Ok(ret(arg(lua, &args, 0)?)))?)?;
    bit.raw_set("bnot", lib_fn(lua, |lua, args: MultiValue| Ok(ret(!arg(lua, &args, 0)?)))?)?;
    bit.raw_set("band", lib_fn(lua, |lua, args: MultiValue| fold(lua, args, |a, b| a & b))?)?;
    bit.raw_set("bor", lib_fn(lua, |lua, args: MultiValue| fold(lua, args, |a, b| a | b))?)?;
    bit.raw_set("bxor", lib_fn(lua, |lua, args: MultiValue| fold(lua, args, |a, b| a ^ b))?)?;
    let shift = |f: fn(u32, u32) -> u32| move |lua: &Lua, args: MultiValue| Ok(ret(f(arg(lua, &args, 0)?, arg(lua, &args, 1)? & 31)));
    bit.raw_set("lshift", lib_fn(lua, shift(|b, n| b << n))?)?;
    bit.raw_set("rshift", lib_fn(lua, shift(|b, n| b >> n))?)?;
    bit.raw_set("arshift", lib_fn(lua, shift(|b, n| ((b as i32) >> n) as u32))?)?;
    bit.raw_set("rol", lib_fn(lua, shift(|b, n| b.rotate_left(n)))?)?;
    bit.raw_set("ror", lib_fn(lua, shift(|b, n| b.rotate_right(n)))?)?;
    bit.raw_set("bswap", lib_fn(lua, |lua, args: MultiValue| Ok(ret(arg(lua, &args, 0)?.swap_bytes())))?)?;
    bit.raw_set(
        "tohex",
        lib_fn(lua, |lua, args: MultiValue| {
            let mut b = arg(lua, &args, 0)?;
            let mut n = if args.len() < 2 { 8 } else { arg(lua, &args, 1)? as i32 };
            if n == i32::MIN {
                n = i32::MIN + 1;
            }
            let digits: &[u8; 16] = if n < 0 { b"0123456789ABCDEF" } else { b"0123456789abcdef" };
            let n = n.unsigned_abs().min(8) as usize;
            let mut out = vec![0u8; n];
            for i in (0..n).rev() {
                out[i] = digits[(b & 15) as usize];
                b >>= 4;
            }
            lua.create_string(&out)
        })?,
    )?;
    Ok(bit)
}
