//! Who may connect and as whom (issue 3): the users file, the default user's password, the
//! IP allowlist and the one user exempt from it. Keys of the `[security]` table and flags of
//! the same names (`security_table.rs` routes them here); `launch` builds `Acl` and
//! `Allowlist` from them.

use crate::config_values::Secret;
use std::path::PathBuf;

#[derive(Debug, Clone, Default)]
pub struct AccessConfig {
    /// Default: `users.acl` in the data dir.
    pub users_file: Option<PathBuf>,
    /// Never printed: `Debug` of the config shows it, so it is redacted there.
    pub requirepass: Option<Secret>,
    pub allowlist: String,
    /// The control plane's service user: a RESP client outside the allowlist whose first
    /// command is AUTH as this user (right password) is served; any other is refused.
    pub allowlist_exempt_user: Option<String>,
    /// Managed mode (issue 43, `platform_commands.rs`): the platform's commands are refused to
    /// customer users. Fixed at start; off by default (Redis' test suite runs unmanaged).
    pub managed: bool,
}

impl AccessConfig {
    /// Applies one setting (dashed name); `Ok(false)` when the name is not one of these.
    pub fn apply(&mut self, name: &str, value: &str) -> Result<bool, String> {
        match name {
            "users-file" => self.users_file = Some(PathBuf::from(value)),
            "requirepass" => self.requirepass = Some(Secret(value.to_string())),
            "allowlist" => {
                crate::allowlist::parse_list(value)?;
                self.allowlist = value.to_string();
            }
            "allowlist-exempt-user" => {
                self.allowlist_exempt_user = Some(value.to_string()).filter(|user| !user.is_empty())
            }
            "managed" => self.managed = crate::config_values::yes_no(name, value)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}
