//! memtier's arbitrary commands: `--command="HSET __key__ field __data__"`, each with its own
//! `--command-ratio` and `--command-key-pattern`. `__key__` is the key prefix and a key number
//! drawn by the command's own pattern, `__data__` the next value; the rest are literal
//! arguments. Used to count what SET and GET alone do not (HSET, ZADD, INCR ...).

use crate::keys::KeyPattern;
use crate::proto;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Literal(Vec<u8>),
    Key,
    Data,
}

#[derive(Clone, Debug)]
pub struct CommandTemplate {
    /// The first word, upper-cased: the command's row in the tables and the JSON.
    pub name: String,
    parts: Vec<Part>,
    pub ratio: u32,
    pub key_pattern: KeyPattern,
}

impl CommandTemplate {
    /// The whole request as RESP, with this key number and value.
    #[inline]
    pub fn encode(&self, buf: &mut Vec<u8>, prefix: &[u8], keynum: u64, value: &[u8]) -> usize {
        let start = buf.len();
        proto::push_array_header(buf, self.parts.len());
        for part in &self.parts {
            match part {
                Part::Literal(bytes) => proto::push_bulk(buf, bytes),
                Part::Key => proto::push_key_arg(buf, prefix, keynum),
                Part::Data => proto::push_bulk(buf, value),
            }
        }
        buf.len() - start
    }

    pub fn uses_data(&self) -> bool {
        self.parts.contains(&Part::Data)
    }
}

/// The `--command` flags with their `--command-ratio` and `--command-key-pattern` flags, one
/// entry per command in order (Args::parse_memtier pairs each with the command before it); a
/// command without one (a missing or empty entry) takes 1 and R.
pub fn parse_commands(commands: &[String], ratios: &[String], patterns: &[String]) -> Result<Vec<CommandTemplate>, String> {
    if ratios.len() > commands.len() || patterns.len() > commands.len() {
        return Err("each --command-ratio and --command-key-pattern follows the --command it belongs to".into());
    }
    commands
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let words = split_words(text)?;
            let name = words.first().ok_or("--command is empty")?;
            let name = String::from_utf8_lossy(name).to_ascii_uppercase();
            let parts = words
                .into_iter()
                .map(|w| match w.as_slice() {
                    b"__key__" => Part::Key,
                    b"__data__" => Part::Data,
                    _ => Part::Literal(w),
                })
                .collect();
            let ratio = match ratios.get(i).filter(|r| !r.is_empty()) {
                None => 1,
                Some(r) => r.parse().ok().filter(|&n| n > 0).ok_or_else(|| format!("--command-ratio '{r}' is not a whole number of at least 1"))?,
            };
            let key_pattern = match patterns.get(i).filter(|p| !p.is_empty()) {
                None => KeyPattern::Random,
                Some(p) => KeyPattern::parse(p)?,
            };
            Ok(CommandTemplate { name, parts, ratio, key_pattern })
        })
        .collect()
}

/// Words split at spaces; a word in double quotes may hold spaces and `\"`.
fn split_words(text: &str) -> Result<Vec<Vec<u8>>, String> {
    let mut words = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let Some(&first) = chars.peek() else { return Ok(words) };
        let mut word = String::new();
        if first == '"' {
            chars.next();
            loop {
                match chars.next() {
                    None => return Err(format!("--command '{text}': a quote is not closed")),
                    Some('"') => break,
                    Some('\\') => word.push(chars.next().ok_or_else(|| format!("--command '{text}' ends in a backslash"))?),
                    Some(c) => word.push(c),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                word.push(c);
                chars.next();
            }
        }
        words.push(word.into_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn placeholders_become_the_key_and_the_value() {
        let c = parse_commands(&strings(&["hset __key__ \"a field\" __data__"]), &[], &[]).unwrap();
        assert_eq!(c[0].name, "HSET");
        assert_eq!((c[0].ratio, c[0].key_pattern), (1, KeyPattern::Random));
        let mut buf = Vec::new();
        c[0].encode(&mut buf, b"k-", 7, b"xy");
        assert_eq!(buf, b"*4\r\n$4\r\nhset\r\n$3\r\nk-7\r\n$7\r\na field\r\n$2\r\nxy\r\n");
        assert!(c[0].uses_data());
    }

    #[test]
    fn ratios_and_patterns_pair_with_commands_in_order() {
        let c = parse_commands(&strings(&["INCR __key__", "GET __key__"]), &strings(&["3", ""]), &strings(&["S", "G"])).unwrap();
        assert_eq!((c[0].ratio, c[0].key_pattern), (3, KeyPattern::Sequential));
        assert_eq!((c[1].ratio, c[1].key_pattern), (1, KeyPattern::Gaussian));
        assert!(!c[0].uses_data());
        assert!(parse_commands(&strings(&["GET __key__"]), &strings(&["1", "2"]), &[]).is_err());
        assert!(parse_commands(&strings(&["GET __key__"]), &strings(&["0"]), &[]).is_err());
        assert!(parse_commands(&strings(&["  "]), &[], &[]).is_err());
        assert!(parse_commands(&strings(&["SET \"open"]), &[], &[]).is_err());
    }
}
