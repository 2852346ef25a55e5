//! DEBUG PROTOCOL <type>: one reply of each RESP type, as Redis writes it (its tests check how
//! scripts read and write every type through this). A RESP2 connection gets each type's RESP2
//! form (`Reply` downgrades it); an attribute is sent only to RESP3 connections.

use super::{is, Ctx};
use crate::error::{CmdError, CmdResult};
use crate::resp::Args;

pub fn run(ctx: &mut Ctx<'_>, args: Args<'_>) -> CmdResult {
    let name = args.get(2);
    let reply = &mut *ctx.reply;
    if is(name, "string") {
        reply.bulk(b"Hello World");
    } else if is(name, "integer") {
        reply.int(12345);
    } else if is(name, "double") {
        reply.double(3.141);
    } else if is(name, "bignum") {
        reply.big_number(b"1234567999999999999999999999999999999");
    } else if is(name, "null") {
        reply.null();
    } else if is(name, "array") || is(name, "set") {
        if is(name, "set") {
            reply.set(3);
        } else {
            reply.array(3);
        }
        for j in 0..3 {
            reply.int(j);
        }
    } else if is(name, "map") {
        reply.map(3);
        for j in 0..3 {
            reply.int(j);
            reply.boolean(j == 1);
        }
    } else if is(name, "attrib") {
        if reply.resp3 {
            reply.attribute(1);
            reply.bulk(b"key-popularity");
            reply.array(2);
            reply.bulk(b"key:123");
            reply.int(90);
        }
        reply.bulk(b"Some real reply following the attribute");
    } else if is(name, "push") {
        if !reply.resp3 {
            return Err(CmdError::msg("ERR RESP2 is not supported by this command"));
        }
        reply.push(2);
        reply.bulk(b"server-cpu-usage");
        reply.int(42);
        reply.bulk(b"Some real reply following the push reply");
    } else if is(name, "true") || is(name, "false") {
        reply.boolean(is(name, "true"));
    } else if is(name, "verbatim") {
        reply.verbatim_as(b"txt", b"This is a verbatim\nstring");
    } else {
        return Err(CmdError::msg(
            "ERR Wrong protocol type name. Please use one of the following: string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false",
        ));
    }
    Ok(())
}
