//! The connection limits an instance starts with (issue 3): `maxclients`, the idle
//! `timeout`, `client-output-buffer-limit` and `proto-max-bulk-len`. Keys of the `[security]`
//! table and flags of the same names (`security_table.rs` routes them here); `launch` loads
//! them into the live `limits::ConnLimits`, which `CONFIG SET` changes.

use crate::config_values::{memory, number};

#[derive(Debug, Clone)]
pub struct LimitsConfig {
    pub maxclients: usize,
    /// Seconds idle before a client is closed; 0 = never.
    pub timeout_secs: u64,
    pub output_limit_bytes: u64,
    pub output_limit_secs: u64,
    pub proto_max_bulk_len: u64,
}

impl Default for LimitsConfig {
    fn default() -> LimitsConfig {
        LimitsConfig {
            maxclients: 10_000,
            timeout_secs: 0,
            output_limit_bytes: 64 << 20,
            output_limit_secs: 60,
            proto_max_bulk_len: 512 << 20,
        }
    }
}

impl LimitsConfig {
    /// Applies one setting (dashed name); `Ok(false)` when the name is not one of these.
    pub fn apply(&mut self, name: &str, value: &str) -> Result<bool, String> {
        match name {
            "maxclients" => match number::<usize>(name, value)? {
                0 => return Err("maxclients must be at least 1".to_string()),
                n => self.maxclients = n,
            },
            "timeout" => self.timeout_secs = number(name, value)?,
            "client-output-buffer-limit" => {
                let (bytes, secs) = parse_output_limit(value)?;
                self.output_limit_bytes = bytes;
                self.output_limit_secs = secs;
            }
            "proto-max-bulk-len" => self.proto_max_bulk_len = memory(name, value)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// `"64mb 60"`: bytes and seconds (Redis' `client-output-buffer-limit` soft limit).
pub fn parse_output_limit(value: &str) -> Result<(u64, u64), String> {
    let mut words = value.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(bytes), Some(secs), None) => Ok((memory("client-output-buffer-limit", bytes)?, number("client-output-buffer-limit", secs)?)),
        _ => Err(format!("client-output-buffer-limit must be 'BYTES SECONDS', not {value:?}")),
    }
}
