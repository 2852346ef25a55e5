//! Installs the extra libraries (`bit`, `cjson`, `cmsgpack`) in a VM. Their functions are
//! written in Rust and report failure as `false, message`; a Lua wrapper raises that message
//! as a plain string error at the calling script's line (`user_script:1: ...`), as the C
//! libraries' `luaL_error` does, so `pcall` in a script gets the text Redis gives.

use mlua::{FromLuaMulti, Function, IntoLuaMulti, Lua, MultiValue, Result, Value};

const WRAP: &str = r#"
local function results(ok, ...)
  if not ok then error((...), 3) end
  return select('#', ...), {...}
end
for _, lib in ipairs({bit, cjson, cmsgpack}) do
  for name, f in pairs(lib) do
    if type(f) == 'function' then
      lib[name] = function(...) local n, r = results(f(...)) return unpack(r, 1, n) end
    end
  end
end
"#;

/// A library function: `f`'s results after `true`, or `false` and the error's text.
pub fn lib_fn<A, R, F>(lua: &Lua, f: F) -> Result<Function>
where
    A: FromLuaMulti,
    R: IntoLuaMulti,
    F: Fn(&Lua, A) -> Result<R> + 'static,
{
    lua.create_function(move |lua, args: A| match f(lua, args) {
        Ok(r) => {
            let mut out = r.into_lua_multi(lua)?;
            out.push_front(Value::Boolean(true));
            Ok(out)
        }
        Err(e) => {
            let text = match &e {
                mlua::Error::RuntimeError(text) => text.clone(),
                other => other.to_string(),
            };
            Ok(MultiValue::from_iter([Value::Boolean(false), Value::String(lua.create_string(text)?)]))
        }
    })
}

/// Sets the libraries as globals (before the globals are protected).
pub fn install(lua: &Lua) -> Result<()> {
    let globals = lua.globals();
    globals.raw_set("bit", super::bit::install(lua)?)?;
    globals.raw_set("cjson", super::cjson::install(lua)?)?;
    globals.raw_set("cmsgpack", super::cmsgpack::install(lua)?)?;
    lua.load(WRAP).set_name("=libraries").exec()
}
