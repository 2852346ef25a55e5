//! The IP allowlist: CIDR blocks (IPv4 and IPv6) a client's address must fall in, checked
//! when the connection is accepted. An empty list lets everyone in (the default), as a fresh
//! instance bound to loopback does; a managed instance gets its customer's list.
//!
//! Written as in Tair / ApsaraDB whitelists: `"10.0.0.0/8 192.168.1.7 ::1/128"` (space or comma
//! separated; a bare address is a /32 or /128). An IPv4 client seen over an IPv6 socket
//! (`::ffff:10.1.2.3`) is matched as IPv4. Changed live with `CONFIG SET allowlist "..."`, and
//! kept in `allowlist.conf` in the data dir so a restart keeps it.

use std::fmt;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::RwLock;

/// One block: an address and how many leading bits must match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl Cidr {
    pub fn parse(text: &str) -> Result<Cidr, String> {
        let (addr_text, prefix_text) = match text.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (text, None),
        };
        let addr: IpAddr = addr_text.parse().map_err(|_| format!("'{text}' is not an IP address or CIDR block"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix_text {
            None => max,
            Some(p) => match p.parse::<u8>() {
                Ok(n) if n <= max => n,
                _ => return Err(format!("'{text}': the prefix length must be 0 to {max}")),
            },
        };
        Ok(Cidr { addr, prefix })
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = normalize(ip);
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => masked(u32::from(net) as u128, 32, self.prefix) == masked(u32::from(ip) as u128, 32, self.prefix),
            (IpAddr::V6(net), IpAddr::V6(ip)) => masked(u128::from(net), 128, self.prefix) == masked(u128::from(ip), 128, self.prefix),
            _ => false,
        }
    }
}

fn masked(value: u128, bits: u8, prefix: u8) -> u128 {
    if prefix == 0 {
        return 0;
    }
    value >> (bits - prefix)
}

/// `::ffff:a.b.c.d` is the IPv4 client `a.b.c.d`.
fn normalize(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

/// Parses a whole list; empty text is the empty list (everyone allowed).
pub fn parse_list(text: &str) -> Result<Vec<Cidr>, String> {
    text.split(|c: char| c == ',' || c.is_whitespace()).filter(|s| !s.is_empty()).map(Cidr::parse).collect()
}

/// The live list, shared by every listener (RESP, TLS, memcached).
pub struct Allowlist {
    blocks: RwLock<Vec<Cidr>>,
    /// Where the list is kept; `None` keeps it in memory only.
    file: Option<PathBuf>,
}

impl Allowlist {
    /// The list from `file` when it exists, else `initial` (the `--allowlist` option). The
    /// file wins because it holds the last `CONFIG SET`.
    pub fn open(file: Option<PathBuf>, initial: &str) -> Result<Allowlist, String> {
        let text = match &file {
            Some(path) if path.exists() => std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read allowlist file {}: {e}", path.display()))?,
            _ => initial.to_string(),
        };
        let blocks = parse_list(&text).map_err(|e| format!("allowlist: {e}"))?;
        Ok(Allowlist { blocks: RwLock::new(blocks), file })
    }

    pub fn in_memory(text: &str) -> Result<Allowlist, String> {
        Allowlist::open(None, text)
    }

    pub fn check(&self, ip: IpAddr) -> bool {
        let blocks = self.blocks.read().unwrap_or_else(|e| e.into_inner());
        blocks.is_empty() || blocks.iter().any(|b| b.contains(ip))
    }

    /// The list as `CONFIG GET allowlist` shows it.
    pub fn render(&self) -> String {
        let blocks = self.blocks.read().unwrap_or_else(|e| e.into_inner());
        blocks.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(" ")
    }

    /// Replaces the list (`CONFIG SET allowlist`) and saves it; nothing changes on error.
    pub fn set(&self, text: &str) -> Result<(), String> {
        let blocks = parse_list(text)?;
        let rendered = blocks.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(" ");
        let mut guard = self.blocks.write().unwrap_or_else(|e| e.into_inner());
        if let Some(path) = &self.file {
            write_atomically(path, &format!("{rendered}\n"))
                .map_err(|e| format!("cannot save the allowlist to {}: {e}", path.display()))?;
        }
        *guard = blocks;
        Ok(())
    }
}

fn write_atomically(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn blocks_match() {
        let list = Allowlist::in_memory("10.0.0.0/8, 192.168.1.7 2001:db8::/32").unwrap();
        assert!(list.check(ip("10.200.3.4")));
        assert!(list.check(ip("::ffff:10.1.1.1")));
        assert!(list.check(ip("192.168.1.7")));
        assert!(!list.check(ip("192.168.1.8")));
        assert!(list.check(ip("2001:db8::1")));
        assert!(!list.check(ip("2001:db9::1")));
        assert!(!list.check(ip("127.0.0.1")));
        assert!(Allowlist::in_memory("").unwrap().check(ip("1.2.3.4")));
        assert!(Allowlist::in_memory("0.0.0.0/0").unwrap().check(ip("1.2.3.4")));
        assert_eq!(list.render(), "10.0.0.0/8 192.168.1.7/32 2001:db8::/32");
    }

    #[test]
    fn bad_blocks_are_errors() {
        assert!(parse_list("10.0.0.0/33").is_err());
        assert!(parse_list("banana").is_err());
        assert!(parse_list("::1/129").is_err());
        let list = Allowlist::in_memory("127.0.0.1").unwrap();
        assert!(list.set("nope").is_err());
        assert_eq!(list.render(), "127.0.0.1/32");
    }
}
