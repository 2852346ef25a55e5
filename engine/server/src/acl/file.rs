//! The users file, in Redis' ACL file format: one `user <name> <rule>...` line per user,
//! `#` comments and blank lines ignored. Passwords are only ever written as `#<sha256>`.
//!
//! Saving writes a temp file beside the target, fsyncs it, renames it over the old one and
//! fsyncs the directory, so a crash leaves either the old or the new file, never half of one.

use super::user::User;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// Reads the users of `path`; errors name the line.
pub fn load(path: &Path) -> Result<BTreeMap<String, User>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read users file {}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("users file {}: {e}", path.display()))
}

pub fn parse(text: &str) -> Result<BTreeMap<String, User>, String> {
    let mut users = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some("user"), Some(name)) = (words.next(), words.next()) else {
            return Err(format!("line {}: should be 'user <name> <rules...>'", number + 1));
        };
        if users.contains_key(name) {
            return Err(format!("line {}: user '{name}' is defined twice", number + 1));
        }
        let mut user = User::new(name);
        for rule in words {
            if rule.starts_with('>') || rule.starts_with('<') {
                return Err(format!("line {}: clear-text passwords are not allowed in the users file; use #<sha256>", number + 1));
            }
            user.apply(rule).map_err(|why| format!("line {}: rule '{rule}': {why}", number + 1))?;
        }
        users.insert(name.to_string(), user);
    }
    Ok(users)
}

pub fn render<'a>(users: impl Iterator<Item = &'a User>) -> String {
    let mut text = String::from("# basalt users file: written by the server on every ACL change\n");
    for user in users {
        text.push_str(&user.describe());
        text.push('\n');
    }
    text
}

pub fn save<'a>(path: &Path, users: impl Iterator<Item = &'a User>) -> Result<(), String> {
    let text = render(users);
    let fail = |what: &str, e: std::io::Error| format!("ERR cannot save the users file {}: {what}: {e}", path.display());
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| fail("create directory", e))?;
    let tmp = path.with_extension("acl.tmp");
    {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut f = options.open(&tmp).map_err(|e| fail("open", e))?;
        f.write_all(text.as_bytes()).map_err(|e| fail("write", e))?;
        f.sync_all().map_err(|e| fail("fsync", e))?;
    }
    std::fs::rename(&tmp, path).map_err(|e| fail("rename", e))?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        let mut u = User::new("app");
        for rule in ["on", ">pw1", ">pw2", "~app:*", "+@all", "-flushall"] {
            u.apply(rule).unwrap();
        }
        let text = render([User::default_user(), u.clone()].iter());
        let back = parse(&text).unwrap();
        assert_eq!(back["app"].describe(), u.describe());
        assert!(back["app"].password_matches(b"pw2"));
        assert!(parse("user x on >clear").is_err());
        assert!(parse("hello").is_err());
        assert!(parse("user x on\nuser x off").is_err());
        assert!(parse("user x +nosuch").unwrap_err().contains("line 1"));
    }
}
