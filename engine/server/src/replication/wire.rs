//! What travels after the primary answers PSYNC (`+FULLRESYNC <replid> <offset>` or
//! `+CONTINUE <replid>`): frames `kind (1 byte) | length (u32 LE) | payload`.
//! - `C`: bytes of the full copy of the primary's log (whole records once concatenated);
//! - `E`: end of the full copy (the stream continues at the FULLRESYNC offset);
//! - `D`: bytes of the replication stream (whole records once concatenated);
//! - `P`: a heartbeat, payload the primary's offset (u64 LE), once a second.
//!
//! The replica answers with RESP `REPLCONF ACK <offset>`: the stream offset its own log
//! holds under its fsync policy (after `wait_durable`), at least once a second.

pub const COPY: u8 = b'C';
pub const COPY_END: u8 = b'E';
pub const DATA: u8 = b'D';
pub const PING: u8 = b'P';
pub const HEADER: usize = 5;
/// Bytes per frame the primary sends at most.
pub const MAX_FRAME: usize = 256 << 10;

pub fn frame(kind: u8, payload: &[u8], out: &mut Vec<u8>) {
    out.push(kind);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
}

/// The kind and payload range of the frame at the start of `buf`, once it is whole; the
/// error for a frame no primary sends.
pub fn parse(buf: &[u8]) -> Result<Option<(u8, std::ops::Range<usize>)>, String> {
    if buf.len() < HEADER {
        return Ok(None);
    }
    let kind = buf[0];
    if ![COPY, COPY_END, DATA, PING].contains(&kind) {
        return Err(format!("unknown replication frame {kind:#x}"));
    }
    let len = u32::from_le_bytes(buf[1..5].try_into().unwrap()) as usize;
    if len > MAX_FRAME {
        return Err(format!("replication frame of {len} bytes"));
    }
    if buf.len() < HEADER + len {
        return Ok(None);
    }
    Ok(Some((kind, HEADER..HEADER + len)))
}

/// `REPLCONF ACK <offset>` as RESP.
pub fn ack(offset: u64) -> Vec<u8> {
    let n = offset.to_string();
    format!("*3\r\n$8\r\nREPLCONF\r\n$3\r\nACK\r\n${}\r\n{n}\r\n", n.len()).into_bytes()
}
