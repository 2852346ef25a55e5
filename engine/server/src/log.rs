//! Structured log lines: one JSON object per line on stderr, for a log shipper to read
//! without parsing prose: `{"ts":"2026-11-22T01:02:03.456Z","level":"warn","event":
//! "connection_refused","peer":"10.0.0.9:5123","reason":"allowlist"}`.
//! Passwords, keys and values are never passed here.

use std::io::Write;
use std::time::{SystemTime, UNIX_EPOCH};

/// Writes one line; `event` is a stable snake_case name, `fields` its details.
pub fn event(level: &str, event: &str, fields: &[(&str, &str)]) {
    let mut line = String::with_capacity(128);
    line.push_str("{\"ts\":\"");
    line.push_str(&timestamp(SystemTime::now()));
    line.push_str("\",\"level\":");
    push_json_string(&mut line, level);
    line.push_str(",\"event\":");
    push_json_string(&mut line, event);
    for (name, value) in fields {
        line.push(',');
        push_json_string(&mut line, name);
        line.push(':');
        push_json_string(&mut line, value);
    }
    line.push_str("}\n");
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

pub fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// RFC 3339 UTC with milliseconds.
pub fn timestamp(at: SystemTime) -> String {
    let since = at.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        since.subsec_millis()
    )
}

/// Days since 1970-01-01 to (year, month, day), after Howard Hinnant's algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_and_escapes() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        assert_eq!(timestamp(UNIX_EPOCH + Duration::from_millis(1_795_309_800_123)), "2026-11-22T01:10:00.123Z");
        let mut s = String::new();
        push_json_string(&mut s, "a\"b\\c\nd\u{1}");
        assert_eq!(s, "\"a\\\"b\\\\c\\nd\\u0001\"");
    }
}
