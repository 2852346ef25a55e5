//! Streams (RDB types 15, 19 and 21) into Basalt's [`Stream`], consumer groups included: the
//! listpack nodes of the entries (see `stream_save.rs` for their layout), the counters, then
//! each group with its pending entries list (PEL) and consumers.

use crate::error::RdbError;
use crate::format::*;
use crate::packed::Elem;
use crate::reader::Reader;
use basalt_storage::{Consumer, Group, Pending, Stream, StreamId, ENTRIES_READ_UNKNOWN};
use bytes::Bytes;
use std::collections::BTreeMap;
use std::io::Read;

pub(crate) fn stream<R: Read>(rd: &mut Reader<R>, ty: u8, at: u64) -> Result<Stream, RdbError> {
    let bad = |why: String| RdbError::corrupt(at, why);
    let mut s = Stream::default();
    let nodes = rd.read_len("a stream's node count")?;
    for _ in 0..nodes {
        let key = rd.read_string("a stream node key")?;
        let master = raw_id(&key).ok_or_else(|| bad(format!("a stream node key of {} bytes, not 16", key.len())))?;
        let lp = rd.read_string("a stream node")?;
        let elems = crate::listpack::elements(&lp).map_err(bad)?;
        if elems.is_empty() {
            return Err(bad("an empty listpack in a stream".into()));
        }
        node_entries(&elems, master, &mut s).map_err(bad)?;
    }
    let length = rd.read_len("a stream's length")?;
    s.last_id = StreamId::new(rd.read_len("a stream's last id")?, rd.read_len("a stream's last id")?);
    if ty >= TYPE_STREAM_LISTPACKS_2 {
        let _first = (rd.read_len("a stream's first id")?, rd.read_len("a stream's first id")?);
        s.max_deleted_id = StreamId::new(rd.read_len("a stream's deleted id")?, rd.read_len("a stream's deleted id")?);
        s.entries_added = rd.read_len("a stream's added count")?;
    } else {
        s.entries_added = length;
    }
    if length != s.entries.len() as u64 {
        return Err(bad(format!("a stream whose length is {length} and whose nodes hold {} entries", s.entries.len())));
    }
    let groups = rd.read_len("a stream's group count")?;
    for _ in 0..groups {
        let name = Bytes::from(rd.read_string("a consumer group name")?);
        let last_id = StreamId::new(rd.read_len("a group's last id")?, rd.read_len("a group's last id")?);
        let entries_read = if ty >= TYPE_STREAM_LISTPACKS_2 {
            rd.read_len("a group's read counter")? as i64
        } else {
            s.estimate_entries_read(last_id)
        };
        let entries_read = if entries_read < 0 { ENTRIES_READ_UNKNOWN } else { entries_read };
        let mut group = Group { last_id, entries_read, ..Group::default() };
        // (delivery ms, count, owner) until the consumers name their entries.
        let mut pel: BTreeMap<StreamId, (u64, u64, Option<Bytes>)> = BTreeMap::new();
        let pending = rd.read_len("a group's pending count")?;
        for _ in 0..pending {
            let id = raw_id(&rd.src.read_array::<16>("a pending entry id")?).unwrap_or_default();
            let delivery_ms = rd.read_ms("a delivery time")?;
            let count = rd.read_len("a delivery count")?;
            if pel.insert(id, (delivery_ms, count, None)).is_some() {
                return Err(bad(format!("a group with pending entry {id} twice")));
            }
        }
        let consumers = rd.read_len("a group's consumer count")?;
        for _ in 0..consumers {
            let cname = Bytes::from(rd.read_string("a consumer name")?);
            let seen_ms = rd.read_ms("a consumer's seen time")?;
            if ty >= TYPE_STREAM_LISTPACKS_3 {
                rd.read_ms("a consumer's active time")?;
            }
            let mut consumer = Consumer { seen_ms, ..Consumer::default() };
            let owned = rd.read_len("a consumer's pending count")?;
            for _ in 0..owned {
                let id = raw_id(&rd.src.read_array::<16>("a pending entry id")?).unwrap_or_default();
                let entry = pel.get_mut(&id).ok_or_else(|| bad(format!("consumer entry {id} not in its group's pending list")))?;
                if entry.2.replace(cname.clone()).is_some() || !consumer.pending.insert(id) {
                    return Err(bad(format!("pending entry {id} owned twice")));
                }
            }
            if group.consumers.insert(cname, consumer).is_some() {
                return Err(bad("a group with a duplicate consumer".into()));
            }
        }
        for (id, (delivery_ms, delivery_count, owner)) in pel {
            let consumer = owner.ok_or_else(|| bad(format!("pending entry {id} without a consumer")))?;
            group.pel.insert(id, Pending { consumer, delivery_ms, delivery_count });
        }
        if s.groups.insert(name, group).is_some() {
            return Err(bad("a stream with a duplicate consumer group".into()));
        }
    }
    Ok(s)
}

/// A stream id as Redis stores it raw: ms then seq, each a u64 big-endian.
fn raw_id(raw: &[u8]) -> Option<StreamId> {
    (raw.len() == 16).then(|| {
        StreamId::new(u64::from_be_bytes(raw[..8].try_into().unwrap()), u64::from_be_bytes(raw[8..].try_into().unwrap()))
    })
}

/// The live entries of one node: the master entry, then entries relative to it.
fn node_entries(elems: &[Elem<'_>], master: StreamId, s: &mut Stream) -> Result<(), String> {
    let mut it = elems.iter().copied();
    let int = |it: &mut std::iter::Copied<std::slice::Iter<'_, Elem<'_>>>, what: &str| {
        it.next().and_then(Elem::as_int).ok_or_else(|| format!("a stream node without its {what}"))
    };
    let _count = int(&mut it, "entry count")?;
    let _deleted = int(&mut it, "deleted count")?;
    let nfields = int(&mut it, "master field count")?;
    if nfields < 0 || nfields as usize > elems.len() {
        return Err(format!("a stream node with {nfields} master fields"));
    }
    let mut master_fields = Vec::with_capacity(nfields as usize);
    for _ in 0..nfields {
        master_fields.push(it.next().ok_or("a stream node cut in its master fields")?.to_bytes());
    }
    if int(&mut it, "master terminator")? != 0 {
        return Err("a stream node whose master entry does not end in 0".into());
    }
    while it.len() > 0 {
        let flags = int(&mut it, "entry flags")?;
        let ms = int(&mut it, "entry id")?;
        let seq = int(&mut it, "entry id")?;
        // Differences are stored as i64 and added back modulo 2^64, as Redis does.
        let id = StreamId::new(master.ms.wrapping_add(ms as u64), master.seq.wrapping_add(seq as u64));
        let mut fields = Vec::new();
        if flags & STREAM_ITEM_SAMEFIELDS != 0 {
            for f in &master_fields {
                fields.push((f.clone(), it.next().ok_or("a stream entry cut short")?.to_bytes()));
            }
        } else {
            let n = int(&mut it, "entry field count")?;
            if n < 0 || n as usize > elems.len() {
                return Err(format!("a stream entry with {n} fields"));
            }
            for _ in 0..n {
                let f = it.next().ok_or("a stream entry cut short")?.to_bytes();
                let v = it.next().ok_or("a stream entry cut short")?.to_bytes();
                fields.push((f, v));
            }
        }
        int(&mut it, "entry element count")?;
        if flags & STREAM_ITEM_DELETED == 0 && s.entries.insert(id, fields).is_some() {
            return Err(format!("stream entry {id} twice"));
        }
    }
    Ok(())
}
