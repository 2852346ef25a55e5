//! A bounded, deterministic fuzz run of the RESP parser inside `cargo test`: millions of
//! generated and mutated frames (structure-aware: real multibulk and inline frames, then bit
//! flips, cuts, splices and corrupted length fields). The parser must never panic, must agree
//! with the generator on valid frames, must find the same frame when fed byte by byte, and its
//! "incomplete" hint must never ask for more bytes than the frame has.
//!
//! `BASALT_FUZZ_ITERATIONS` changes the count (default 2,000,000); the same seed gives the same
//! run. The open-ended variant is the cargo-fuzz target in `engine/fuzz`.

mod common;

use basalt_server::resp::{parse_frame, Frame, Limits, Parsed};

/// xorshift64*: small, fast, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }
}

fn random_arg(rng: &mut Rng, inline_safe: bool) -> Vec<u8> {
    let len = match rng.below(100) {
        0..=9 => 0,
        10..=89 => rng.below(16),
        90..=98 => rng.below(300),
        _ => rng.below(5000),
    } as usize;
    (0..len)
        .map(|_| {
            if inline_safe {
                b"abcdefghijklmnopqrstuvwxyz0123456789:_-"[rng.below(39) as usize]
            } else {
                match rng.below(8) {
                    0 => b'\r',
                    1 => b'\n',
                    2 => b'$',
                    3 => b'*',
                    _ => rng.below(256) as u8,
                }
            }
        })
        .collect()
}

fn multibulk(args: &[Vec<u8>]) -> Vec<u8> {
    common::encode(&args.iter().map(Vec::as_slice).collect::<Vec<_>>())
}

fn inline(rng: &mut Rng, args: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.extend(std::iter::repeat_n(b' ', 1 + rng.below(2) as usize));
        }
        out.extend_from_slice(a);
    }
    out.extend_from_slice(if rng.chance(2) { b"\r\n" } else { b"\n" });
    out
}

fn parse(buf: &[u8], frame: &mut Frame) -> Result<Parsed, basalt_server::resp::ProtocolError> {
    parse_frame(buf, frame, Limits::DEFAULT)
}

/// Invariants that hold for any input whatever.
fn check_any(buf: &[u8], frame: &mut Frame) {
    match parse(buf, frame) {
        Ok(Parsed::Complete(n)) => {
            assert!(n > 0 && n <= buf.len(), "Complete({n}) for {} bytes", buf.len());
            // Arguments lie within the buffer and can be read.
            let args = frame.args(buf);
            for i in 0..args.len() {
                let _ = args.get(i).len();
            }
            // Parsing only the frame's bytes gives the same frame.
            let mut again = Frame::new();
            assert_eq!(parse(&buf[..n], &mut again), Ok(Parsed::Complete(n)));
        }
        Ok(Parsed::Incomplete(need)) => assert!(need > buf.len(), "Incomplete({need}) for {} bytes", buf.len()),
        Err(_) => {}
    }
}

fn mutate(rng: &mut Rng, mut bytes: Vec<u8>) -> Vec<u8> {
    for _ in 0..1 + rng.below(4) {
        if bytes.is_empty() {
            bytes.push(rng.below(256) as u8);
            continue;
        }
        let at = rng.below(bytes.len() as u64) as usize;
        match rng.below(7) {
            0 => bytes[at] ^= 1 << rng.below(8),
            1 => bytes[at] = rng.below(256) as u8,
            2 => bytes.truncate(at),
            3 => {
                let end = (at + rng.below(8) as usize).min(bytes.len());
                bytes.drain(at..end);
            }
            4 => {
                let junk: Vec<u8> = (0..rng.below(8)).map(|_| rng.below(256) as u8).collect();
                bytes.splice(at..at, junk);
            }
            5 => {
                // Corrupt a length field: replace the digits after the next '*' or '$'.
                if let Some(p) = bytes[at..].iter().position(|&b| b == b'$' || b == b'*') {
                    let start = at + p + 1;
                    let end = bytes[start..].iter().position(|&b| b == b'\r').map_or(bytes.len(), |e| start + e);
                    let n = match rng.below(5) {
                        0 => "-1".to_string(),
                        1 => (i64::MAX).to_string(),
                        2 => "99999999999999999999999".to_string(),
                        3 => format!("{}", 536870912 + rng.below(3)),
                        _ => rng.below(70).to_string(),
                    };
                    bytes.splice(start..end, n.into_bytes());
                }
            }
            _ => {
                let copy = bytes[at..].to_vec();
                bytes.extend_from_slice(&copy[..copy.len().min(64)]);
            }
        }
    }
    bytes
}

#[test]
fn millions_of_frames_never_break_the_parser() {
    let iterations: u64 =
        std::env::var("BASALT_FUZZ_ITERATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000_000);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut frame = Frame::new();
    let started = std::time::Instant::now();
    for i in 0..iterations {
        let nargs = 1 + rng.below(6) as usize;
        let use_inline = rng.chance(4);
        let args: Vec<Vec<u8>> = (0..nargs)
            .map(|_| {
                let mut a = random_arg(&mut rng, use_inline);
                if use_inline && a.is_empty() {
                    a.push(b'x');
                }
                a
            })
            .collect();
        let valid = if use_inline { inline(&mut rng, &args) } else { multibulk(&args) };

        // 1. A valid frame parses to exactly its arguments.
        if i % 8 == 0 {
            assert_eq!(parse(&valid, &mut frame), Ok(Parsed::Complete(valid.len())));
            let got: Vec<&[u8]> = frame.args(&valid).iter().collect();
            let want: Vec<&[u8]> = args.iter().map(|a| a.as_slice()).collect();
            assert_eq!(got, want);
            // 2. Every prefix is incomplete, with a hint that does not overshoot the frame.
            let cut = rng.below(valid.len() as u64) as usize;
            match parse(&valid[..cut], &mut frame) {
                Ok(Parsed::Incomplete(need)) => assert!(need > cut && need <= valid.len(), "need {need}, cut {cut}, len {}", valid.len()),
                other => panic!("prefix of {cut}/{} bytes gave {other:?}", valid.len()),
            }
        }
        // 3. Mutated frames (sometimes followed by a valid one, as in a pipeline).
        let mut bytes = mutate(&mut rng, valid.clone());
        if rng.chance(3) {
            bytes.extend_from_slice(&valid);
        }
        check_any(&bytes, &mut frame);
    }
    // 4. Pure noise.
    for _ in 0..iterations / 10 {
        let len = rng.below(200) as usize;
        let noise: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        check_any(&noise, &mut frame);
    }
    eprintln!("fuzzed {} frames in {:?}", iterations + iterations / 10, started.elapsed());
}

#[test]
fn a_pipeline_parses_frame_after_frame() {
    let mut rng = Rng(42);
    let mut frame = Frame::new();
    for _ in 0..2000 {
        let mut stream = Vec::new();
        let mut expected = Vec::new();
        for _ in 0..1 + rng.below(20) {
            let args: Vec<Vec<u8>> = (0..1 + rng.below(4)).map(|_| random_arg(&mut rng, false)).collect();
            stream.extend_from_slice(&multibulk(&args));
            expected.push(args);
        }
        let mut pos = 0;
        for args in expected {
            match parse(&stream[pos..], &mut frame) {
                Ok(Parsed::Complete(n)) => {
                    let got: Vec<Vec<u8>> = frame.args(&stream[pos..]).iter().map(|a| a.to_vec()).collect();
                    assert_eq!(got, args);
                    pos += n;
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(pos, stream.len());
    }
}
