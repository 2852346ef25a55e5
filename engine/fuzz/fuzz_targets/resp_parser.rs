//! libFuzzer target for the RESP framing: any bytes, parsed frame after frame as a connection
//! would, must never panic; `Complete(n)` must consume 1..=len bytes and `Incomplete(need)`
//! must ask for more than is buffered. Arguments are read back to catch bad spans.

#![no_main]

use basalt_server::resp::{parse_frame, Frame, Limits, Parsed};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut frame = Frame::new();
    for limits in [Limits::DEFAULT, Limits::UNAUTHENTICATED] {
        let mut pos = 0;
        while pos < data.len() {
            let buf = &data[pos..];
            match parse_frame(buf, &mut frame, limits) {
                Ok(Parsed::Complete(n)) => {
                    assert!(n > 0 && n <= buf.len());
                    let args = frame.args(buf);
                    let total: usize = args.iter().map(|a| a.len()).sum();
                    assert!(total <= buf.len() || frame.is_inline());
                    pos += n;
                }
                Ok(Parsed::Incomplete(need)) => {
                    assert!(need > buf.len());
                    break;
                }
                Err(_) => break,
            }
        }
    }
});
