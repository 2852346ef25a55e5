//! RESP: the wire protocol of Redis.
//!
//! `frame` turns buffered bytes into command arguments in two passes (is a whole frame here?
//! then where are its arguments?), with "incomplete" as a normal answer; `reply` writes RESP2
//! or RESP3 replies into one output buffer per pipeline.

pub mod frame;
pub mod number;
pub mod owned;
pub mod reply;

pub use frame::{parse_frame, Args, Frame, Limits, Parsed, ProtocolError};
pub use owned::OwnedArgs;
pub use reply::Reply;
