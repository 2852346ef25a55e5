//! RESP framing for tests: a command as a multibulk frame, and where a whole reply ends.

/// A command as a RESP multibulk frame.
pub fn encode(args: &[&[u8]]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", args.len()).into_bytes();
    for a in args {
        out.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
        out.extend_from_slice(a);
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// Length of the complete reply starting at `at`, or None if incomplete. A type byte RESP
/// does not have panics: the server sent something that is not a reply.
pub fn reply_len(buf: &[u8], at: usize) -> Option<usize> {
    let line_end = at + buf.get(at..)?.windows(2).position(|w| w == b"\r\n")?;
    let head = *buf.get(at)?;
    let text = std::str::from_utf8(&buf[at + 1..line_end]).ok()?;
    let after = line_end + 2;
    match head {
        b'+' | b'-' | b':' | b'_' | b',' | b'#' | b'(' => Some(after - at),
        b'$' | b'=' | b'!' => {
            let n: i64 = text.parse().ok()?;
            if n < 0 {
                return Some(after - at);
            }
            let end = after + n as usize + 2;
            (buf.len() >= end).then_some(end - at)
        }
        b'*' | b'~' | b'%' | b'>' => {
            let n: i64 = text.parse().ok()?;
            let items = if head == b'%' { n * 2 } else { n };
            let mut pos = after;
            for _ in 0..items.max(0) {
                pos += reply_len(buf, pos)?;
            }
            Some(pos - at)
        }
        _ => panic!("unknown reply type {:?}", head as char),
    }
}
