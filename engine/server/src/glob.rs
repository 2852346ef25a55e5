//! Redis' glob-style pattern matching (`stringmatchlen`): `*`, `?`, `[abc]`, `[^a]`, `[a-z]`
//! and `\x` escapes. Used by KEYS, SCAN MATCH, HSCAN MATCH and CONFIG GET.

/// Whether `text` matches `pattern`.
pub fn matches(pattern: &[u8], text: &[u8], nocase: bool) -> bool {
    // Iterative with one backtrack point for the last '*', so long patterns stay linear-ish
    // and cannot blow the stack.
    let (mut p, mut t) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    let eq = |a: u8, b: u8| if nocase { a.eq_ignore_ascii_case(&b) } else { a == b };
    while t < text.len() {
        if p < pattern.len() {
            match pattern[p] {
                b'*' => {
                    while p + 1 < pattern.len() && pattern[p + 1] == b'*' {
                        p += 1;
                    }
                    star = Some((p, t));
                    p += 1;
                    continue;
                }
                b'?' => {
                    p += 1;
                    t += 1;
                    continue;
                }
                b'[' => {
                    if let Some((matched, next)) = class(pattern, p, text[t], nocase) {
                        if matched {
                            p = next;
                            t += 1;
                            continue;
                        }
                    }
                }
                b'\\' if p + 1 < pattern.len() => {
                    if eq(pattern[p + 1], text[t]) {
                        p += 2;
                        t += 1;
                        continue;
                    }
                }
                c => {
                    if eq(c, text[t]) {
                        p += 1;
                        t += 1;
                        continue;
                    }
                }
            }
        }
        match star {
            Some((sp, st)) => {
                p = sp + 1;
                t = st + 1;
                star = Some((sp, st + 1));
            }
            None => return false,
        }
    }
    while p < pattern.len() && pattern[p] == b'*' {
        p += 1;
    }
    p == pattern.len()
}

/// Matches `c` against the class starting at `pattern[start] == '['`; returns whether it
/// matched and where the pattern continues. An unterminated class runs to the end, as in Redis.
fn class(pattern: &[u8], start: usize, c: u8, nocase: bool) -> Option<(bool, usize)> {
    let mut p = start + 1;
    let negate = p < pattern.len() && pattern[p] == b'^';
    if negate {
        p += 1;
    }
    let lower = |b: u8| if nocase { b.to_ascii_lowercase() } else { b };
    let c = lower(c);
    let mut matched = false;
    loop {
        if p >= pattern.len() {
            break;
        }
        if pattern[p] == b'\\' && p + 1 < pattern.len() {
            if lower(pattern[p + 1]) == c {
                matched = true;
            }
            p += 2;
        } else if pattern[p] == b']' {
            p += 1;
            break;
        } else if p + 2 < pattern.len() && pattern[p + 1] == b'-' {
            let (mut a, mut b) = (lower(pattern[p]), lower(pattern[p + 2]));
            if a > b {
                std::mem::swap(&mut a, &mut b);
            }
            if c >= a && c <= b {
                matched = true;
            }
            p += 3;
        } else {
            if lower(pattern[p]) == c {
                matched = true;
            }
            p += 1;
        }
    }
    Some((matched != negate, p))
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn patterns() {
        assert!(matches(b"*", b"anything", false));
        assert!(matches(b"user:*", b"user:1", false));
        assert!(!matches(b"user:*", b"use", false));
        assert!(matches(b"h?llo", b"hello", false));
        assert!(matches(b"h[ae]llo", b"hallo", false));
        assert!(!matches(b"h[^e]llo", b"hello", false));
        assert!(matches(b"h[a-b]llo", b"hbllo", false));
        assert!(matches(b"a\\*b", b"a*b", false));
        assert!(matches(b"*a*b*c*", b"xxaxxbxxc", false));
        assert!(matches(b"MAX*", b"maxmemory", true));
        assert!(!matches(b"a*b", b"acbd", false));
    }
}
