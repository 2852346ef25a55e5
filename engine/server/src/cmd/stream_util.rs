//! What the stream commands (X*) share: id parsing as Redis 7.0's `streamGenericParseIDOrReply`,
//! MAXLEN/MINID trimming options, entry replies, stream access inside `Db::update`, and the
//! keyspace events they fire.

use super::{arg_i64, is, Ctx};
use crate::error::CmdError;
use crate::resp::number::parse_i64;
use crate::resp::Args;
use crate::resp::Reply;
use basalt_storage::{Delta, Fields, Slot, Stream, StreamDelta, StreamId, Value};
use bytes::Bytes;

pub const INVALID_ID: &str = "ERR Invalid stream ID specified as stream command argument";

/// Redis' `string2ull`: a non-negative `string2ll`, else what C's `strtoull` takes whole
/// (leading spaces, a sign, leading zeros; a `-` negates, as C does).
fn parse_u64(text: &[u8]) -> Option<u64> {
    if let Some(n) = parse_i64(text) {
        return (n >= 0).then_some(n as u64);
    }
    let start = text.iter().position(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r'))?;
    let mut rest = &text[start..];
    let negative = rest.first() == Some(&b'-');
    if matches!(rest.first(), Some(b'-' | b'+')) {
        rest = &rest[1..];
    }
    if rest.is_empty() || !rest.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n: u64 = std::str::from_utf8(rest).ok()?.parse().ok()?;
    Some(if negative { n.wrapping_neg() } else { n })
}

/// An id argument: `ms-seq`, or `ms` with `missing_seq`; `-`/`+` unless `strict`. With
/// `allow_star_seq`, `ms-*` gives (id, false) (the sequence is to be generated).
pub fn parse_id(arg: &[u8], missing_seq: u64, strict: bool, allow_star_seq: bool) -> Result<(StreamId, bool), CmdError> {
    let invalid = || CmdError::msg(INVALID_ID);
    if arg.len() > 127 {
        return Err(invalid());
    }
    if arg == b"-" || arg == b"+" {
        if strict {
            return Err(invalid());
        }
        return Ok((if arg == b"-" { StreamId::MIN } else { StreamId::MAX }, true));
    }
    match arg.iter().position(|&b| b == b'-') {
        None => Ok((StreamId::new(parse_u64(arg).ok_or_else(invalid)?, missing_seq), true)),
        Some(dash) => {
            let ms = parse_u64(&arg[..dash]).ok_or_else(invalid)?;
            let seq = &arg[dash + 1..];
            if allow_star_seq && seq == b"*" {
                return Ok((StreamId::new(ms, 0), false));
            }
            Ok((StreamId::new(ms, parse_u64(seq).ok_or_else(invalid)?), true))
        }
    }
}

/// A strict id (no `-`/`+`), sequence 0 when missing.
pub fn strict_id(arg: &[u8]) -> Result<StreamId, CmdError> {
    Ok(parse_id(arg, 0, true, false)?.0)
}

/// A range bound of XRANGE/XPENDING: `(` makes it exclusive (as Redis, only for the strict form).
pub fn interval_id(arg: &[u8], missing_seq: u64) -> Result<(StreamId, bool), CmdError> {
    if arg.len() > 1 && arg[0] == b'(' {
        Ok((parse_id(&arg[1..], missing_seq, true, false)?.0, true))
    } else {
        Ok((parse_id(arg, missing_seq, false, false)?.0, false))
    }
}

/// How XADD/XTRIM trim: by length or by lowest id, exactly or approximately, with a limit.
#[derive(Clone, Copy, Debug, Default)]
pub struct Trim {
    pub maxlen: Option<u64>,
    pub minid: Option<StreamId>,
    pub approx: bool,
    /// 0: no limit.
    pub limit: u64,
    /// `stream-node-max-entries`: `~` trims only whole nodes of this many entries.
    pub node: u64,
}

/// Redis' `stream-node-max-entries` default.
pub const NODE_ENTRIES: u64 = 100;

/// The configured `stream-node-max-entries`.
pub fn node_entries(ctx: &Ctx<'_>) -> u64 {
    ctx.shared.config.read().unwrap_or_else(|e| e.into_inner()).encodings.stream_node_max_entries as u64
}

/// Parses XADD/XTRIM options from `args[2..]`; for XADD stops at the id and returns its
/// position (and NOMKSTREAM). Redis' `streamParseAddOrTrimArgsOrReply`.
pub fn parse_trim(args: Args<'_>, xadd: bool, node: u64) -> Result<(Trim, usize, bool), CmdError> {
    let mut t = Trim { node: node.max(1), ..Trim::default() };
    let mut nomkstream = false;
    let mut limit_given = false;
    let mut i = 2;
    let both = || CmdError::msg("ERR syntax error, MAXLEN and MINID options at the same time are not compatible");
    while i < args.len() {
        let more = args.len() - 1 - i;
        let opt = args.get(i);
        if xadd && opt == b"*" {
            break;
        } else if (is(opt, "maxlen") || is(opt, "minid")) && more > 0 {
            if t.maxlen.is_some() || t.minid.is_some() {
                return Err(both());
            }
            t.approx = false;
            let next = args.get(i + 1);
            if more >= 2 && next == b"~" {
                t.approx = true;
                i += 1;
            } else if more >= 2 && next == b"=" {
                i += 1;
            }
            if is(opt, "maxlen") {
                let n = arg_i64(args.get(i + 1))?;
                if n < 0 {
                    return Err(CmdError::msg("ERR The MAXLEN argument must be >= 0."));
                }
                t.maxlen = Some(n as u64);
            } else {
                t.minid = Some(strict_id(args.get(i + 1))?);
            }
            i += 1;
        } else if is(opt, "limit") && more > 0 {
            let n = arg_i64(args.get(i + 1))?;
            if n < 0 {
                return Err(CmdError::msg("ERR The LIMIT argument must be >= 0."));
            }
            t.limit = n as u64;
            limit_given = true;
            i += 1;
        } else if xadd && is(opt, "nomkstream") {
            nomkstream = true;
        } else if xadd {
            break;
        } else {
            return Err(CmdError::Syntax);
        }
        i += 1;
    }
    let strategy = t.maxlen.is_some() || t.minid.is_some();
    if t.limit != 0 && !strategy {
        return Err(CmdError::msg("ERR syntax error, LIMIT cannot be used without specifying a trimming strategy"));
    }
    if !xadd && !strategy {
        return Err(CmdError::msg("ERR syntax error, XTRIM must be called with a trimming strategy"));
    }
    if limit_given {
        if !t.approx {
            return Err(CmdError::msg("ERR syntax error, LIMIT cannot be used without the special ~ option"));
        }
    } else if t.approx {
        t.limit = match node.saturating_mul(100) {
            0 => 10000,
            n => n.min(1_000_000),
        };
    }
    Ok((t, i, nomkstream))
}

/// The id of the last entry a trim removes (it and every entry below it go), or None when
/// nothing goes. `~` removes only whole nodes of `t.node` entries, as Redis' listpack nodes
/// (which Basalt does not have): a node boundary is put after every `t.node`-th entry ever
/// added, which is where Redis' nodes end for a stream filled by XADD.
pub fn trim_point(s: &Stream, t: &Trim) -> Option<StreamId> {
    let len = s.len() as u64;
    let mut remove = match (t.maxlen, t.minid) {
        (Some(max), _) => len.saturating_sub(max),
        (None, Some(min)) => s.entries.range(..min).count() as u64,
        _ => 0,
    };
    if t.limit != 0 {
        remove = remove.min(t.limit);
    }
    if t.approx {
        // Ordinal (among entries ever added) of the first entry.
        let base = s.entries_added.saturating_sub(len);
        let end = base + remove;
        remove = (end - end % t.node).saturating_sub(base);
    }
    if remove == 0 {
        return None;
    }
    s.entries.keys().nth(remove as usize - 1).copied()
}

/// Trims inside an update; returns how many entries went.
pub fn apply_trim(slot: &mut Slot<'_>, t: &Trim) -> i64 {
    let Some(s) = stream_of(slot) else { return 0 };
    let before = s.len();
    let Some(point) = trim_point(s, t) else { return 0 };
    slot.apply(Delta::Stream(StreamDelta::TrimThrough(point)));
    (before - stream_of(slot).map_or(0, |s| s.len())) as i64
}

/// The stream in the slot (checked by the caller).
pub fn stream_of<'s>(slot: &'s Slot<'_>) -> Option<&'s Stream> {
    match slot.get().map(|e| &e.value) {
        Some(Value::Stream(s)) => Some(s),
        _ => None,
    }
}

/// The stream under the slot's key for a write: None when missing, WRONGTYPE for another type.
pub fn existing<'s>(slot: &'s Slot<'_>) -> Result<Option<&'s Stream>, CmdError> {
    match slot.get().map(|e| &e.value) {
        None => Ok(None),
        Some(Value::Stream(s)) => Ok(Some(s)),
        Some(_) => Err(CmdError::WrongType),
    }
}

/// Applies a stream change to the slot's stream; true when it was counted.
pub fn change(slot: &mut Slot<'_>, d: StreamDelta) -> bool {
    slot.apply(Delta::Stream(d)).is_some_and(|o| o.counted)
}

/// An id as a bulk string.
pub fn reply_id(reply: &mut Reply, id: StreamId) {
    reply.bulk(id.to_string().as_bytes());
}

/// One entry: [id, [field, value, ...]].
pub fn reply_entry(reply: &mut Reply, id: StreamId, fields: &Fields) {
    reply.array(2);
    reply_id(reply, id);
    reply.array(fields.len() * 2);
    for (f, v) in fields {
        reply.bulk(f);
        reply.bulk(v);
    }
}

/// A list of entries.
pub fn reply_entries(reply: &mut Reply, entries: &[(StreamId, Fields)]) {
    reply.array(entries.len());
    for (id, fields) in entries {
        reply_entry(reply, *id, fields);
    }
}

/// Publishes a stream keyspace event (class `t`) for `key` after the command.
pub fn event(ctx: &Ctx<'_>, key: &[u8], name: &'static str) {
    crate::pubsub::notify::named(&ctx.shared.pubsub, ctx.session.db, key, crate::pubsub::notify::class::STREAM, name);
}

/// A COUNT argument as Redis reads it (negative counts as 0).
pub fn count_arg(arg: &[u8]) -> Result<u64, CmdError> {
    Ok(arg_i64(arg)?.max(0) as u64)
}

/// A non-negative integer or the given error text.
pub fn nonneg(arg: &[u8], text: &str) -> Result<i64, CmdError> {
    match parse_i64(arg) {
        Some(n) if n >= 0 => Ok(n),
        Some(_) => Err(CmdError::msg(text.to_string())),
        None => Err(CmdError::NotInteger),
    }
}

/// The group `name` of the stream, or NOGROUP with Redis' wording for `cmd`.
pub fn nogroup(key: &[u8], group: &[u8], cmd: &str) -> CmdError {
    CmdError::msg(format!(
        "NOGROUP No such key '{}' or consumer group '{}'{cmd}",
        String::from_utf8_lossy(key),
        String::from_utf8_lossy(group)
    ))
}

/// Bytes of an argument.
pub fn b(arg: &[u8]) -> Bytes {
    Bytes::copy_from_slice(arg)
}

/// Looks up (refreshing its seen time) or creates `consumer` in `group`, as Redis'
/// `streamLookupConsumer` / `streamCreateConsumer`; true when it was created.
pub fn touch_consumer(slot: &mut Slot<'_>, group: &[u8], consumer: &[u8]) -> bool {
    let now = slot.now_ms();
    change(slot, StreamDelta::ConsumerSet { group: b(group), consumer: b(consumer), seen_ms: now })
}
