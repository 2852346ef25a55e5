//! The stream type (Redis 7.0 streams): entries ordered by id `ms-seq`, the stream's counters,
//! and consumer groups with their pending entries lists (PEL) and consumers. Its log encoding
//! (value tag 6, format version 1) and its element-level changes ([`StreamDelta`], delta tags
//! 11-20) are here, so XADD, XACK or XREADGROUP log what they change, not the whole stream.
//!
//! A delta states the result it leaves (a group's new last id and read counter, a pending
//! entry's owner, time and count), computed by the command; applying it never recomputes Redis'
//! estimates, so replay gives back exactly the state the command left.

use bytes::Bytes;
use std::collections::{BTreeMap, BTreeSet};

/// A stream entry id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct StreamId {
    pub ms: u64,
    pub seq: u64,
}

impl StreamId {
    pub const MIN: StreamId = StreamId { ms: 0, seq: 0 };
    pub const MAX: StreamId = StreamId { ms: u64::MAX, seq: u64::MAX };

    pub fn new(ms: u64, seq: u64) -> StreamId {
        StreamId { ms, seq }
    }

    /// The id right after this one; None after the greatest.
    pub fn next(self) -> Option<StreamId> {
        if self.seq < u64::MAX {
            Some(StreamId::new(self.ms, self.seq + 1))
        } else if self.ms < u64::MAX {
            Some(StreamId::new(self.ms + 1, 0))
        } else {
            None
        }
    }

    /// The id right before this one; None before 0-0.
    pub fn prev(self) -> Option<StreamId> {
        if self.seq > 0 {
            Some(StreamId::new(self.ms, self.seq - 1))
        } else if self.ms > 0 {
            Some(StreamId::new(self.ms - 1, u64::MAX))
        } else {
            None
        }
    }

    pub fn is_zero(self) -> bool {
        self == StreamId::MIN
    }
}

impl std::fmt::Display for StreamId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.ms, self.seq)
    }
}

/// The field-value pairs of one entry, in the order given to XADD.
pub type Fields = Vec<(Bytes, Bytes)>;

/// A group's read counter when it is not known (Redis' `SCG_INVALID_ENTRIES_READ`).
pub const ENTRIES_READ_UNKNOWN: i64 = -1;

/// A stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stream {
    pub entries: BTreeMap<StreamId, Fields>,
    /// The greatest id ever added (or set by XSETID).
    pub last_id: StreamId,
    /// How many entries were ever added (XSETID may set it).
    pub entries_added: u64,
    /// The greatest id XDEL removed (0-0: none).
    pub max_deleted_id: StreamId,
    /// Consumer groups by name (byte order, as Redis' radix tree lists them).
    pub groups: BTreeMap<Bytes, Group>,
}

/// A consumer group.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Group {
    /// The last id delivered to the group's consumers.
    pub last_id: StreamId,
    /// Entries read by the group, or [`ENTRIES_READ_UNKNOWN`].
    pub entries_read: i64,
    /// Entries delivered and not acknowledged.
    pub pel: BTreeMap<StreamId, Pending>,
    pub consumers: BTreeMap<Bytes, Consumer>,
}

/// An entry delivered and not acknowledged.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    pub consumer: Bytes,
    /// Unix ms of the last delivery.
    pub delivery_ms: u64,
    pub delivery_count: u64,
}

/// A consumer of a group.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Consumer {
    /// Unix ms it was last seen (reading or claiming).
    pub seen_ms: u64,
    /// Ids of the group's PEL it owns.
    pub pending: BTreeSet<StreamId>,
}

impl Stream {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn first_id(&self) -> Option<StreamId> {
        self.entries.keys().next().copied()
    }

    /// Approximate bytes of memory (what `maxmemory` counts; see `Value::mem_size`).
    pub fn mem_size(&self) -> usize {
        let entries: usize = self.entries.values().map(entry_mem).sum();
        let groups: usize = self.groups.iter().map(|(name, g)| group_mem(name, g)).sum();
        entries + groups + 64
    }

    /// Elements for the delta folding rule: entries plus pending entries and consumers.
    pub fn elements(&self) -> usize {
        self.entries.len() + self.groups.values().map(|g| 1 + g.pel.len() + g.consumers.len()).sum::<usize>()
    }

    /// Whether XDEL removed an entry in `start..=end` that may still be counted by a group
    /// (Redis' `streamRangeHasTombstones`).
    pub fn range_has_tombstones(&self, start: StreamId, end: StreamId) -> bool {
        let Some(first) = self.first_id() else { return false };
        if self.max_deleted_id.is_zero() || first > self.max_deleted_id {
            return false;
        }
        start <= self.max_deleted_id && self.max_deleted_id <= end
    }

    /// The logical position (1-based count of entries ever added) of `id`, when it can be
    /// known (Redis' `streamEstimateDistanceFromFirstEverEntry`).
    pub fn estimate_entries_read(&self, id: StreamId) -> i64 {
        if self.entries_added == 0 {
            return 0;
        }
        let added = self.entries_added as i64;
        if self.entries.is_empty() && id <= self.last_id {
            return added;
        }
        if id == self.last_id {
            return added;
        } else if id > self.last_id {
            return ENTRIES_READ_UNKNOWN;
        }
        let first = self.first_id().unwrap_or(StreamId::MIN);
        if self.max_deleted_id.is_zero() || self.max_deleted_id < first {
            if id < first {
                return added - self.len() as i64;
            } else if id == first {
                return added - self.len() as i64 + 1;
            }
        }
        ENTRIES_READ_UNKNOWN
    }

    /// A group's lag (Redis' `streamReplyWithCGLag`); None when it cannot be known.
    pub fn lag(&self, group: &Group) -> Option<i64> {
        let added = self.entries_added as i64;
        if self.entries_added == 0 {
            return Some(0);
        }
        if group.entries_read != ENTRIES_READ_UNKNOWN && !self.range_has_tombstones(group.last_id, StreamId::MAX) {
            return Some(added - group.entries_read);
        }
        match self.estimate_entries_read(group.last_id) {
            ENTRIES_READ_UNKNOWN => None,
            read => Some(added - read),
        }
    }
}

fn entry_mem(fields: &Fields) -> usize {
    fields.iter().map(|(f, v)| f.len() + v.len() + 16).sum::<usize>() + 48
}

fn group_mem(name: &[u8], g: &Group) -> usize {
    let consumers: usize = g.consumers.iter().map(|(n, c)| n.len() + 48 + 16 * c.pending.len()).sum();
    name.len() + 64 + consumers + 64 * g.pel.len()
}

/// An element-level change of a stream (a [`crate::Delta::Stream`]).
#[derive(Debug, Clone, PartialEq)]
pub enum StreamDelta {
    /// XADD: append an entry; the last id becomes `id` (if greater), entries_added grows by 1.
    Add { id: StreamId, fields: Fields },
    /// XDEL of one entry; max_deleted_id becomes `id` if greater.
    Del(StreamId),
    /// MAXLEN/MINID trimming: remove every entry with an id up to `last_removed` (inclusive).
    TrimThrough(StreamId),
    /// XSETID: the stream's counters as given.
    SetMeta { last_id: StreamId, entries_added: u64, max_deleted_id: StreamId },
    /// Create a group (empty PEL) or set an existing one's last id and read counter.
    GroupSet { group: Bytes, last_id: StreamId, entries_read: i64 },
    GroupDel(Bytes),
    /// Create a consumer if missing, and set when it was last seen.
    ConsumerSet { group: Bytes, consumer: Bytes, seen_ms: u64 },
    /// Delete a consumer and its pending entries.
    ConsumerDel { group: Bytes, consumer: Bytes },
    /// Put an entry in the PEL (or change it) as owned by `consumer` (created if missing),
    /// delivered at `delivery_ms`, `count` times.
    PelSet { group: Bytes, id: StreamId, consumer: Bytes, delivery_ms: u64, count: u64 },
    /// Acknowledge: remove an entry from the PEL.
    PelDel { group: Bytes, id: StreamId },
}

/// What applying a stream delta did: (changed, counted, memory change).
pub(crate) fn apply(s: &mut Stream, d: &StreamDelta) -> (bool, bool, i64) {
    match d {
        StreamDelta::Add { id, fields } => {
            let mem = entry_mem(fields) as i64;
            let old = s.entries.insert(*id, fields.clone());
            if *id > s.last_id {
                s.last_id = *id;
            }
            s.entries_added = s.entries_added.saturating_add(1);
            (true, old.is_none(), mem - old.map_or(0, |f| entry_mem(&f) as i64))
        }
        StreamDelta::Del(id) => match s.entries.remove(id) {
            Some(fields) => {
                if *id > s.max_deleted_id {
                    s.max_deleted_id = *id;
                }
                (true, true, -(entry_mem(&fields) as i64))
            }
            None => (false, false, 0),
        },
        StreamDelta::TrimThrough(last_removed) => {
            let kept = match last_removed.next() {
                Some(first_kept) => s.entries.split_off(&first_kept),
                None => Default::default(),
            };
            let removed = std::mem::replace(&mut s.entries, kept);
            let mem: usize = removed.values().map(entry_mem).sum();
            (!removed.is_empty(), !removed.is_empty(), -(mem as i64))
        }
        StreamDelta::SetMeta { last_id, entries_added, max_deleted_id } => {
            let changed = (s.last_id, s.entries_added, s.max_deleted_id) != (*last_id, *entries_added, *max_deleted_id);
            s.last_id = *last_id;
            s.entries_added = *entries_added;
            s.max_deleted_id = *max_deleted_id;
            (changed, changed, 0)
        }
        StreamDelta::GroupSet { group, last_id, entries_read } => match s.groups.get_mut(group) {
            Some(g) => {
                let changed = (g.last_id, g.entries_read) != (*last_id, *entries_read);
                g.last_id = *last_id;
                g.entries_read = *entries_read;
                (changed, false, 0)
            }
            None => {
                let g = Group { last_id: *last_id, entries_read: *entries_read, ..Group::default() };
                let mem = group_mem(group, &g) as i64;
                s.groups.insert(group.clone(), g);
                (true, true, mem)
            }
        },
        StreamDelta::GroupDel(group) => match s.groups.remove(group) {
            Some(g) => (true, true, -(group_mem(group, &g) as i64)),
            None => (false, false, 0),
        },
        StreamDelta::ConsumerSet { group, consumer, seen_ms } => {
            let Some(g) = s.groups.get_mut(group) else { return (false, false, 0) };
            match g.consumers.get_mut(consumer) {
                Some(c) => {
                    let changed = c.seen_ms != *seen_ms;
                    c.seen_ms = *seen_ms;
                    (changed, false, 0)
                }
                None => {
                    g.consumers.insert(consumer.clone(), Consumer { seen_ms: *seen_ms, pending: BTreeSet::new() });
                    (true, true, consumer.len() as i64 + 48)
                }
            }
        }
        StreamDelta::ConsumerDel { group, consumer } => {
            let Some(g) = s.groups.get_mut(group) else { return (false, false, 0) };
            let Some(c) = g.consumers.remove(consumer) else { return (false, false, 0) };
            for id in &c.pending {
                g.pel.remove(id);
            }
            (true, true, -(consumer.len() as i64 + 48 + 80 * c.pending.len() as i64))
        }
        StreamDelta::PelSet { group, id, consumer, delivery_ms, count } => {
            let Some(g) = s.groups.get_mut(group) else { return (false, false, 0) };
            let mut mem = 0;
            let new = Pending { consumer: consumer.clone(), delivery_ms: *delivery_ms, delivery_count: *count };
            match g.pel.insert(*id, new) {
                Some(old) => {
                    if let Some(c) = g.consumers.get_mut(&old.consumer) {
                        c.pending.remove(id);
                    }
                }
                None => mem += 80,
            }
            let c = g.consumers.entry(consumer.clone()).or_insert_with(|| {
                mem += consumer.len() as i64 + 48;
                Consumer { seen_ms: *delivery_ms, pending: BTreeSet::new() }
            });
            c.pending.insert(*id);
            (true, mem > 0, mem)
        }
        StreamDelta::PelDel { group, id } => {
            let Some(g) = s.groups.get_mut(group) else { return (false, false, 0) };
            let Some(p) = g.pel.remove(id) else { return (false, false, 0) };
            if let Some(c) = g.consumers.get_mut(&p.consumer) {
                c.pending.remove(id);
            }
            (true, true, -80)
        }
    }
}

// Delta tags (see `delta.rs` for 1-10).
pub(crate) const D_XADD: u8 = 11;
const D_XDEL: u8 = 12;
const D_XTRIM: u8 = 13;
const D_XSETID: u8 = 14;
const D_GROUP_SET: u8 = 15;
const D_GROUP_DEL: u8 = 16;
const D_CONSUMER_SET: u8 = 17;
const D_CONSUMER_DEL: u8 = 18;
const D_PEL_SET: u8 = 19;
pub(crate) const D_PEL_DEL: u8 = 20;

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    out.extend_from_slice(b);
}

fn put_id(out: &mut Vec<u8>, id: StreamId) {
    out.extend_from_slice(&id.ms.to_le_bytes());
    out.extend_from_slice(&id.seq.to_le_bytes());
}

fn put_u64(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(&n.to_le_bytes());
}

/// Appends one stream delta: its tag, then its fields.
pub(crate) fn encode_delta(d: &StreamDelta, out: &mut Vec<u8>) {
    match d {
        StreamDelta::Add { id, fields } => {
            out.push(D_XADD);
            put_id(out, *id);
            out.extend_from_slice(&(fields.len() as u32).to_le_bytes());
            for (f, v) in fields {
                put_bytes(out, f);
                put_bytes(out, v);
            }
        }
        StreamDelta::Del(id) => {
            out.push(D_XDEL);
            put_id(out, *id);
        }
        StreamDelta::TrimThrough(id) => {
            out.push(D_XTRIM);
            put_id(out, *id);
        }
        StreamDelta::SetMeta { last_id, entries_added, max_deleted_id } => {
            out.push(D_XSETID);
            put_id(out, *last_id);
            put_u64(out, *entries_added);
            put_id(out, *max_deleted_id);
        }
        StreamDelta::GroupSet { group, last_id, entries_read } => {
            out.push(D_GROUP_SET);
            put_bytes(out, group);
            put_id(out, *last_id);
            put_u64(out, *entries_read as u64);
        }
        StreamDelta::GroupDel(group) => {
            out.push(D_GROUP_DEL);
            put_bytes(out, group);
        }
        StreamDelta::ConsumerSet { group, consumer, seen_ms } => {
            out.push(D_CONSUMER_SET);
            put_bytes(out, group);
            put_bytes(out, consumer);
            put_u64(out, *seen_ms);
        }
        StreamDelta::ConsumerDel { group, consumer } => {
            out.push(D_CONSUMER_DEL);
            put_bytes(out, group);
            put_bytes(out, consumer);
        }
        StreamDelta::PelSet { group, id, consumer, delivery_ms, count } => {
            out.push(D_PEL_SET);
            put_bytes(out, group);
            put_id(out, *id);
            put_bytes(out, consumer);
            put_u64(out, *delivery_ms);
            put_u64(out, *count);
        }
        StreamDelta::PelDel { group, id } => {
            out.push(D_PEL_DEL);
            put_bytes(out, group);
            put_id(out, *id);
        }
    }
}

/// Reads fields of an encoded value or delta; every read is bounds-checked (bad bytes are an
/// error, never a panic).
pub(crate) struct Reader<'a> {
    pub data: &'a Bytes,
    pub pos: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<std::ops::Range<usize>, &'static str> {
        if self.data.len().saturating_sub(self.pos) < n {
            return Err("stream data truncated");
        }
        self.pos += n;
        Ok(self.pos - n..self.pos)
    }
    pub fn u8(&mut self) -> Result<u8, &'static str> {
        let r = self.take(1)?;
        Ok(self.data[r][0])
    }
    fn u32(&mut self) -> Result<usize, &'static str> {
        let r = self.take(4)?;
        Ok(u32::from_le_bytes(self.data[r].try_into().unwrap()) as usize)
    }
    fn u64(&mut self) -> Result<u64, &'static str> {
        let r = self.take(8)?;
        Ok(u64::from_le_bytes(self.data[r].try_into().unwrap()))
    }
    fn id(&mut self) -> Result<StreamId, &'static str> {
        let ms = self.u64()?;
        Ok(StreamId::new(ms, self.u64()?))
    }
    fn bytes(&mut self) -> Result<Bytes, &'static str> {
        let n = self.u32()?;
        let r = self.take(n)?;
        Ok(self.data.slice(r))
    }
    /// A count of items each at least `min_bytes` long, refused if the rest cannot hold them
    /// (so a damaged count never reserves memory it does not have).
    fn count(&mut self, min_bytes: usize) -> Result<usize, &'static str> {
        let n = self.u32()?;
        if n.saturating_mul(min_bytes) > self.data.len() - self.pos {
            return Err("stream count runs past the data");
        }
        Ok(n)
    }
    fn fields(&mut self) -> Result<Fields, &'static str> {
        let n = self.count(8)?;
        if n == 0 {
            return Err("stream entry without fields");
        }
        let mut fields = Vec::with_capacity(n);
        for _ in 0..n {
            let f = self.bytes()?;
            fields.push((f, self.bytes()?));
        }
        Ok(fields)
    }
}

/// Decodes the stream delta with tag `tag` (already read).
pub(crate) fn decode_delta(tag: u8, r: &mut Reader<'_>) -> Result<StreamDelta, &'static str> {
    Ok(match tag {
        D_XADD => {
            let id = r.id()?;
            StreamDelta::Add { id, fields: r.fields()? }
        }
        D_XDEL => StreamDelta::Del(r.id()?),
        D_XTRIM => StreamDelta::TrimThrough(r.id()?),
        D_XSETID => {
            let last_id = r.id()?;
            let entries_added = r.u64()?;
            StreamDelta::SetMeta { last_id, entries_added, max_deleted_id: r.id()? }
        }
        D_GROUP_SET => {
            let group = r.bytes()?;
            let last_id = r.id()?;
            StreamDelta::GroupSet { group, last_id, entries_read: r.u64()? as i64 }
        }
        D_GROUP_DEL => StreamDelta::GroupDel(r.bytes()?),
        D_CONSUMER_SET => {
            let group = r.bytes()?;
            let consumer = r.bytes()?;
            StreamDelta::ConsumerSet { group, consumer, seen_ms: r.u64()? }
        }
        D_CONSUMER_DEL => {
            let group = r.bytes()?;
            StreamDelta::ConsumerDel { group, consumer: r.bytes()? }
        }
        D_PEL_SET => {
            let group = r.bytes()?;
            let id = r.id()?;
            let consumer = r.bytes()?;
            let delivery_ms = r.u64()?;
            StreamDelta::PelSet { group, id, consumer, delivery_ms, count: r.u64()? }
        }
        D_PEL_DEL => {
            let group = r.bytes()?;
            StreamDelta::PelDel { group, id: r.id()? }
        }
        _ => return Err("unknown delta"),
    })
}

/// Version of the stream value encoding after tag 6: a later layout takes another number, and
/// this build refuses numbers it does not know.
const VALUE_VERSION: u8 = 1;

/// Appends a stream's value encoding after its type tag:
/// `version (u8 = 1) | last_id | entries_added (u64) | max_deleted_id | n (u32) entries
/// (id, npairs (u32), field value ...) | n (u32) groups (name, last_id, entries_read (i64),
/// n (u32) consumers (name, seen_ms (u64)), n (u32) pending (id, consumer, delivery_ms (u64),
/// count (u64)))`; an id is `ms (u64) seq (u64)`, bytes are `len (u32) bytes`, all LE.
pub(crate) fn encode_value(s: &Stream, out: &mut Vec<u8>) {
    out.push(VALUE_VERSION);
    put_id(out, s.last_id);
    put_u64(out, s.entries_added);
    put_id(out, s.max_deleted_id);
    out.extend_from_slice(&(s.entries.len() as u32).to_le_bytes());
    for (id, fields) in &s.entries {
        put_id(out, *id);
        out.extend_from_slice(&(fields.len() as u32).to_le_bytes());
        for (f, v) in fields {
            put_bytes(out, f);
            put_bytes(out, v);
        }
    }
    out.extend_from_slice(&(s.groups.len() as u32).to_le_bytes());
    for (name, g) in &s.groups {
        put_bytes(out, name);
        put_id(out, g.last_id);
        put_u64(out, g.entries_read as u64);
        out.extend_from_slice(&(g.consumers.len() as u32).to_le_bytes());
        for (cname, c) in &g.consumers {
            put_bytes(out, cname);
            put_u64(out, c.seen_ms);
        }
        out.extend_from_slice(&(g.pel.len() as u32).to_le_bytes());
        for (id, p) in &g.pel {
            put_id(out, *id);
            put_bytes(out, &p.consumer);
            put_u64(out, p.delivery_ms);
            put_u64(out, p.delivery_count);
        }
    }
}

/// Decodes what [`encode_value`] wrote (from `r.pos`, after the tag) and checks it: ids in
/// ascending order and not above the last id, no duplicate group or consumer, every pending
/// entry owned by a consumer of its group.
pub(crate) fn decode_value(r: &mut Reader<'_>) -> Result<Stream, &'static str> {
    if r.u8()? != VALUE_VERSION {
        return Err("unknown stream encoding version");
    }
    let mut s = Stream { last_id: r.id()?, entries_added: r.u64()?, max_deleted_id: r.id()?, ..Stream::default() };
    let n = r.count(20)?;
    let mut prev: Option<StreamId> = None;
    for _ in 0..n {
        let id = r.id()?;
        if prev.is_some_and(|p| p >= id) || id > s.last_id {
            return Err("stream entries out of order");
        }
        prev = Some(id);
        s.entries.insert(id, r.fields()?);
    }
    let ngroups = r.count(36)?;
    let mut prev_group: Option<Bytes> = None;
    for _ in 0..ngroups {
        let name = r.bytes()?;
        if prev_group.as_ref().is_some_and(|p| *p >= name) {
            return Err("stream groups out of order");
        }
        prev_group = Some(name.clone());
        let mut g = Group { last_id: r.id()?, entries_read: r.u64()? as i64, ..Group::default() };
        let nconsumers = r.count(12)?;
        let mut prev_consumer: Option<Bytes> = None;
        for _ in 0..nconsumers {
            let cname = r.bytes()?;
            if prev_consumer.as_ref().is_some_and(|p| *p >= cname) {
                return Err("stream consumers out of order");
            }
            prev_consumer = Some(cname.clone());
            g.consumers.insert(cname, Consumer { seen_ms: r.u64()?, pending: BTreeSet::new() });
        }
        let npel = r.count(36)?;
        let mut prev_pel: Option<StreamId> = None;
        for _ in 0..npel {
            let id = r.id()?;
            if prev_pel.is_some_and(|p| p >= id) {
                return Err("stream pending entries out of order");
            }
            prev_pel = Some(id);
            let consumer = r.bytes()?;
            let c = g.consumers.get_mut(&consumer).ok_or("pending entry of an unknown consumer")?;
            c.pending.insert(id);
            let delivery_ms = r.u64()?;
            g.pel.insert(id, Pending { consumer, delivery_ms, delivery_count: r.u64()? });
        }
        s.groups.insert(name, g);
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(s: &str) -> Bytes {
        Bytes::copy_from_slice(s.as_bytes())
    }

    fn sample() -> Stream {
        let mut s = Stream::default();
        let g = b("g");
        let deltas = [
            StreamDelta::Add { id: StreamId::new(1, 0), fields: vec![(b("a"), b("1"))] },
            StreamDelta::Add { id: StreamId::new(1, 1), fields: vec![(b("b"), b("2")), (b("b"), b("")) ] },
            StreamDelta::Add { id: StreamId::new(5, 0), fields: vec![(b(""), b("3"))] },
            StreamDelta::GroupSet { group: g.clone(), last_id: StreamId::new(1, 1), entries_read: 2 },
            StreamDelta::ConsumerSet { group: g.clone(), consumer: b("alice"), seen_ms: 7 },
            StreamDelta::PelSet { group: g.clone(), id: StreamId::new(1, 0), consumer: b("alice"), delivery_ms: 7, count: 1 },
            StreamDelta::PelSet { group: g.clone(), id: StreamId::new(1, 1), consumer: b("bob"), delivery_ms: 8, count: 2 },
            StreamDelta::GroupSet { group: b("h"), last_id: StreamId::MIN, entries_read: ENTRIES_READ_UNKNOWN },
        ];
        for d in &deltas {
            apply(&mut s, d);
        }
        s
    }

    #[test]
    fn smallest_parts_decode() {
        // One group with nothing in it is the smallest group a count must allow for.
        let mut s = Stream::default();
        apply(&mut s, &StreamDelta::GroupSet { group: Bytes::new(), last_id: StreamId::MIN, entries_read: 0 });
        for value in [Stream::default(), s] {
            let mut buf = Vec::new();
            encode_value(&value, &mut buf);
            let data = Bytes::from(buf);
            assert_eq!(decode_value(&mut Reader { data: &data, pos: 0 }).unwrap(), value);
        }
    }

    #[test]
    fn value_round_trip_and_damage() {
        let s = sample();
        let mut buf = Vec::new();
        encode_value(&s, &mut buf);
        let data = Bytes::from(buf.clone());
        assert_eq!(decode_value(&mut Reader { data: &data, pos: 0 }).unwrap(), s);
        // Every truncation and every single-byte change decodes to an error or a valid
        // stream, never a panic.
        for cut in 0..buf.len() {
            let data = Bytes::copy_from_slice(&buf[..cut]);
            assert!(decode_value(&mut Reader { data: &data, pos: 0 }).is_err() || cut == buf.len());
        }
        for at in 0..buf.len() {
            for x in [1u8, 0x80, 0xff] {
                let mut bad = buf.clone();
                bad[at] ^= x;
                let data = Bytes::from(bad);
                let _ = decode_value(&mut Reader { data: &data, pos: 0 });
            }
        }
    }

    #[test]
    fn delta_round_trip_and_apply() {
        let g = b("g");
        let all = vec![
            StreamDelta::Add { id: StreamId::new(9, 9), fields: vec![(b("f"), b("v"))] },
            StreamDelta::Del(StreamId::new(1, 0)),
            StreamDelta::TrimThrough(StreamId::new(2, 0)),
            StreamDelta::SetMeta { last_id: StreamId::new(10, 0), entries_added: 40, max_deleted_id: StreamId::new(3, 0) },
            StreamDelta::GroupSet { group: g.clone(), last_id: StreamId::new(5, 0), entries_read: -1 },
            StreamDelta::ConsumerSet { group: g.clone(), consumer: b("c"), seen_ms: 1 },
            StreamDelta::PelSet { group: g.clone(), id: StreamId::new(5, 0), consumer: b("c"), delivery_ms: 2, count: 3 },
            StreamDelta::PelDel { group: g.clone(), id: StreamId::new(5, 0) },
            StreamDelta::ConsumerDel { group: g.clone(), consumer: b("c") },
            StreamDelta::GroupDel(g.clone()),
        ];
        for d in &all {
            let mut buf = Vec::new();
            encode_delta(d, &mut buf);
            let data = Bytes::from(buf.clone());
            let mut r = Reader { data: &data, pos: 1 };
            assert_eq!(&decode_delta(buf[0], &mut r).unwrap(), d);
            assert_eq!(r.pos, buf.len());
            let data = Bytes::copy_from_slice(&buf[..buf.len() - 1]);
            assert!(decode_delta(buf[0], &mut Reader { data: &data, pos: 1 }).is_err());
        }
        let mut s = sample();
        apply(&mut s, &StreamDelta::PelSet { group: g.clone(), id: StreamId::new(1, 0), consumer: b("bob"), delivery_ms: 9, count: 2 });
        assert!(s.groups[&g].consumers[&b("alice")].pending.is_empty());
        assert_eq!(s.groups[&g].consumers[&b("bob")].pending.len(), 2);
        apply(&mut s, &StreamDelta::ConsumerDel { group: g.clone(), consumer: b("bob") });
        assert!(s.groups[&g].pel.is_empty());
        apply(&mut s, &StreamDelta::TrimThrough(StreamId::new(4, 9)));
        assert_eq!(s.len(), 1);
        assert_eq!(s.entries_added, 3);
        apply(&mut s, &StreamDelta::Del(StreamId::new(5, 0)));
        assert_eq!(s.max_deleted_id, StreamId::new(5, 0));
        assert!(s.is_empty());
    }
}
