//! How a setting's text is read, the same whether it came as `--name value` or as a key of a
//! config file table (`[security]`, `[replication]`): yes/no, numbers, memory sizes, ports, the
//! table walk that turns each TOML value into that text, and `Secret` for passwords.

use crate::config::parse_memory;

/// A password that `{:?}` does not print.
#[derive(Clone)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

pub(crate) fn yes_no(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "yes" | "true" | "on" => Ok(true),
        "no" | "false" | "off" => Ok(false),
        _ => Err(format!("{name} must be yes or no, not {value:?}")),
    }
}

pub(crate) fn port(name: &str, value: &str) -> Result<u16, String> {
    value.parse().map_err(|_| format!("{name} must be a port 0-65535, not {value:?}"))
}

pub(crate) fn number<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, String> {
    value.trim().parse().map_err(|_| format!("{name} must be a non-negative number, not {value:?}"))
}

pub(crate) fn memory(name: &str, value: &str) -> Result<u64, String> {
    parse_memory(value).ok_or_else(|| format!("{name}: not a memory size: {value:?}"))
}

/// Applies each `key = value` of a config file table (`[security]`, `[replication]`) as the
/// flag of that name would; unknown keys are errors (typos must not pass).
pub(crate) fn apply_toml_table(
    section: &str,
    table: &toml::Table,
    mut apply: impl FnMut(&str, &str) -> Result<bool, String>,
) -> Result<(), String> {
    for (key, value) in table {
        let text = match value {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(n) => n.to_string(),
            toml::Value::Boolean(b) => (if *b { "yes" } else { "no" }).to_string(),
            other => return Err(format!("[{section}] {key}: unsupported value {}", other.type_str())),
        };
        if !apply(key, &text).map_err(|e| format!("[{section}] {e}"))? {
            return Err(format!("[{section}]: unknown key {key:?}"));
        }
    }
    Ok(())
}
