//! One user and the Redis 7 ACL rules that change it (`ACL SETUSER name rule...`).
//!
//! Supported rules: `on` `off` `nopass` `resetpass` `>pass` `<pass` `#hash` `!hash`
//! `~pattern` `allkeys` `resetkeys` `&pattern` `allchannels` `resetchannels` (channels are
//! kept for clients that send them; there is no pub/sub) `+cmd` `-cmd` `+cmd|sub` `-cmd|sub`
//! `+@category` `-@category` `allcommands` `nocommands` `reset`.

use super::hash::{hash_password, parse_hash};
use crate::registry::registry;
use crate::table::acl::NAMES as CATEGORY_NAMES;

/// A user may hold at most this many passwords: enough to rotate without downtime (add the
/// new one, move the clients, remove the old one), few enough to audit.
pub const MAX_PASSWORDS: usize = 2;

#[derive(Clone, Debug)]
pub struct User {
    pub name: String,
    pub enabled: bool,
    pub nopass: bool,
    /// SHA-256 hex digests, in the order they were added.
    pub passwords: Vec<String>,
    /// Glob patterns of keys the user may touch; `*` alone means every key.
    pub key_patterns: Vec<String>,
    pub channel_patterns: Vec<String>,
    /// Per registry entry (command or subcommand): may the user run it?
    pub allowed: Vec<bool>,
    /// The command rules as given since the last `+@all`/`-@all`, for `ACL LIST` and the file.
    pub command_rules: Vec<String>,
}

/// Category bit of `@name`, or all bits for `@all`.
fn category_bits(name: &str) -> Option<u32> {
    if name.eq_ignore_ascii_case("all") {
        return Some(u32::MAX);
    }
    CATEGORY_NAMES
        .iter()
        .find(|(_, n)| n[1..].eq_ignore_ascii_case(name))
        .map(|(bit, _)| *bit)
}

impl User {
    /// A new user as `ACL SETUSER name` creates it: off, no passwords, no keys, no commands.
    pub fn new(name: &str) -> User {
        User {
            name: name.to_string(),
            enabled: false,
            nopass: false,
            passwords: Vec::new(),
            key_patterns: Vec::new(),
            channel_patterns: Vec::new(),
            allowed: vec![false; registry().entries.len()],
            command_rules: vec!["-@all".to_string()],
        }
    }

    /// The `default` user of a fresh server: on, no password needed, everything allowed.
    pub fn default_user() -> User {
        let mut user = User::new("default");
        for rule in ["on", "nopass", "~*", "&*", "+@all"] {
            user.apply(rule).expect("the default rules are valid");
        }
        user
    }

    pub fn all_keys(&self) -> bool {
        self.key_patterns.iter().any(|p| p == "*")
    }

    pub fn all_commands(&self) -> bool {
        self.allowed.iter().all(|&a| a)
    }

    /// Whether `password` opens this user (it must also be enabled; the caller checks).
    pub fn password_matches(&self, password: &[u8]) -> bool {
        if self.nopass {
            return true;
        }
        let hash = hash_password(password);
        self.passwords.iter().any(|h| super::hash::same_hash(h, &hash))
    }

    /// Applies one rule; the error is the text after `ERR Error in ACL SETUSER modifier '...': `.
    pub fn apply(&mut self, rule: &str) -> Result<(), String> {
        let lower = rule.to_ascii_lowercase();
        match lower.as_str() {
            "on" => self.enabled = true,
            "off" => self.enabled = false,
            "nopass" => {
                self.nopass = true;
                self.passwords.clear();
            }
            "resetpass" => {
                self.nopass = false;
                self.passwords.clear();
            }
            "allkeys" => self.key_patterns = vec!["*".to_string()],
            "resetkeys" => self.key_patterns.clear(),
            "allchannels" => self.channel_patterns = vec!["*".to_string()],
            "resetchannels" => self.channel_patterns.clear(),
            "allcommands" => self.set_all(true),
            "nocommands" => self.set_all(false),
            "reset" => {
                let name = std::mem::take(&mut self.name);
                *self = User::new(&name);
                self.apply("resetchannels")?;
            }
            _ => return self.apply_prefixed(rule),
        }
        Ok(())
    }

    fn apply_prefixed(&mut self, rule: &str) -> Result<(), String> {
        let Some(first) = rule.chars().next() else {
            return Err("Syntax error".to_string());
        };
        let rest = &rule[first.len_utf8()..];
        match first {
            '>' => self.add_hash(hash_password(rest.as_bytes())),
            '<' => {
                let hash = hash_password(rest.as_bytes());
                self.remove_hash(&hash)
            }
            '#' => {
                let hash = parse_hash(rest).ok_or("The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters")?;
                self.add_hash(hash)
            }
            '!' => {
                let hash = parse_hash(rest).ok_or("The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters")?;
                self.remove_hash(&hash)
            }
            '~' => {
                if rest == "*" {
                    self.key_patterns = vec!["*".to_string()];
                } else if !self.all_keys() && !self.key_patterns.iter().any(|p| p == rest) {
                    self.key_patterns.push(rest.to_string());
                }
                Ok(())
            }
            '%' => Err("Read/write key selectors (%R~, %W~) are not supported".to_string()),
            '&' => {
                if rest == "*" {
                    self.channel_patterns = vec!["*".to_string()];
                } else if !self.channel_patterns.iter().any(|p| p == rest || p == "*") {
                    self.channel_patterns.push(rest.to_string());
                }
                Ok(())
            }
            '+' | '-' => self.command_rule(first == '+', rest),
            _ => Err("Syntax error".to_string()),
        }
    }

    fn add_hash(&mut self, hash: String) -> Result<(), String> {
        self.nopass = false;
        if self.passwords.contains(&hash) {
            return Ok(());
        }
        if self.passwords.len() >= MAX_PASSWORDS {
            return Err(format!(
                "A user holds at most {MAX_PASSWORDS} passwords; remove one with '<password' or '!hash' first"
            ));
        }
        self.passwords.push(hash);
        Ok(())
    }

    fn remove_hash(&mut self, hash: &str) -> Result<(), String> {
        let before = self.passwords.len();
        self.passwords.retain(|h| h != hash);
        if self.passwords.len() == before {
            return Err("no such password".to_string());
        }
        Ok(())
    }

    fn set_all(&mut self, allow: bool) {
        self.allowed.iter_mut().for_each(|a| *a = allow);
        self.command_rules = vec![if allow { "+@all" } else { "-@all" }.to_string()];
    }

    /// `+get`, `-client|kill`, `+@read`, `-@dangerous`.
    fn command_rule(&mut self, allow: bool, what: &str) -> Result<(), String> {
        let reg = registry();
        let sign = if allow { '+' } else { '-' };
        if let Some(category) = what.strip_prefix('@') {
            let bits = category_bits(category).ok_or("Unknown command or category name in ACL")?;
            if bits == u32::MAX {
                self.set_all(allow);
                return Ok(());
            }
            for (i, entry) in reg.entries.iter().enumerate() {
                if entry.spec.acl & bits != 0 {
                    self.allowed[i] = allow;
                }
            }
            self.command_rules.push(format!("{sign}@{}", category.to_ascii_lowercase()));
            return Ok(());
        }
        let index = reg.lookup_full(what.as_bytes()).ok_or("Unknown command or category name in ACL")?;
        self.allowed[index] = allow;
        for sub in reg.entries[index].subcommands.clone() {
            self.allowed[sub] = allow;
        }
        self.command_rules.push(format!("{sign}{}", reg.entries[index].fullname));
        Ok(())
    }

    /// The rules that rebuild this user, as `ACL LIST` prints them and the users file keeps
    /// them: `user alice on #<hash> ~cache:* resetchannels -@all +@read`.
    pub fn describe(&self) -> String {
        let mut parts = vec![format!("user {}", self.name), (if self.enabled { "on" } else { "off" }).to_string()];
        if self.nopass {
            parts.push("nopass".to_string());
        }
        parts.extend(self.passwords.iter().map(|h| format!("#{h}")));
        parts.push(self.keys_rule());
        parts.push(self.channels_rule());
        parts.push(self.commands_rule());
        parts.retain(|p| !p.is_empty());
        parts.join(" ")
    }

    pub fn keys_rule(&self) -> String {
        if self.key_patterns.is_empty() {
            return "resetkeys".to_string();
        }
        self.key_patterns.iter().map(|p| format!("~{p}")).collect::<Vec<_>>().join(" ")
    }

    pub fn channels_rule(&self) -> String {
        if self.channel_patterns.is_empty() {
            return "resetchannels".to_string();
        }
        self.channel_patterns.iter().map(|p| format!("&{p}")).collect::<Vec<_>>().join(" ")
    }

    pub fn commands_rule(&self) -> String {
        self.command_rules.join(" ")
    }

    /// The flags `ACL GETUSER` lists.
    pub fn flags(&self) -> Vec<&'static str> {
        let mut flags = vec![if self.enabled { "on" } else { "off" }];
        if self.nopass {
            flags.push("nopass");
        }
        flags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_build_a_read_only_user() {
        let mut u = User::new("reader");
        for rule in ["on", ">secret", "~cache:*", "+@read"] {
            u.apply(rule).unwrap();
        }
        let reg = registry();
        assert!(u.allowed[reg.lookup(b"get").unwrap()]);
        assert!(!u.allowed[reg.lookup(b"set").unwrap()]);
        assert!(u.password_matches(b"secret") && !u.password_matches(b"nope"));
        assert_eq!(
            u.describe(),
            format!("user reader on #{} ~cache:* resetchannels -@all +@read", hash_password(b"secret"))
        );
    }

    #[test]
    fn at_most_two_passwords() {
        let mut u = User::new("r");
        u.apply(">one").unwrap();
        u.apply(">two").unwrap();
        assert!(u.apply(">three").is_err());
        u.apply("<one").unwrap();
        u.apply(">three").unwrap();
        assert!(u.password_matches(b"two") && u.password_matches(b"three") && !u.password_matches(b"one"));
    }

    #[test]
    fn bad_rules_are_errors() {
        let mut u = User::new("r");
        assert!(u.apply("+nosuchcommand").is_err());
        assert!(u.apply("+@nosuchcategory").is_err());
        assert!(u.apply("#abc").is_err());
        assert!(u.apply("bogus").is_err());
        assert!(u.apply("").is_err());
    }
}
