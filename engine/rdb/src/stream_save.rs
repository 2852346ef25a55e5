//! A stream as RDB type 19 (STREAM_LISTPACKS_2), what Redis 7.0 writes and loads as is.
//!
//! Entries go into listpack nodes of at most 100 entries or about 4 KB (Redis' defaults of
//! `stream-node-max-entries` / `-bytes`), keyed by their first ("master") id as 16 raw bytes.
//! A node: `count | deleted | nfields | master fields... | 0`, then per entry
//! `flags | ms-diff | seq-diff | [nfields | field value...] or [value...] | element count`,
//! the values alone (flag SAMEFIELDS) when the entry has the master's fields.

use crate::error::RdbError;
use crate::format::*;
use crate::listpack::Builder;
use crate::writer::Writer;
use basalt_storage::{Fields, Stream, StreamId};
use bytes::Bytes;
use std::io::Write;

const NODE_ENTRIES: usize = 100;
const NODE_BYTES: usize = 4096;

pub(crate) fn stream<W: Write>(w: &mut Writer<W>, s: &Stream) -> Result<(), RdbError> {
    let entries: Vec<(&StreamId, &Fields)> = s.entries.iter().collect();
    let mut nodes = Vec::new();
    let mut start = 0;
    while start < entries.len() {
        let (node, used) = build_node(&entries[start..]);
        nodes.push((*entries[start].0, node));
        start += used;
    }
    w.len(nodes.len() as u64)?;
    for (master, lp) in &nodes {
        w.string(&raw_id(*master))?;
        w.string(lp)?;
    }
    w.len(s.entries.len() as u64)?;
    id(w, s.last_id)?;
    id(w, s.first_id().unwrap_or(StreamId::MIN))?;
    id(w, s.max_deleted_id)?;
    w.len(s.entries_added)?;
    w.len(s.groups.len() as u64)?;
    for (name, g) in &s.groups {
        w.string(name)?;
        id(w, g.last_id)?;
        w.len(g.entries_read as u64)?;
        w.len(g.pel.len() as u64)?;
        for (pid, p) in &g.pel {
            w.raw(&raw_id(*pid))?;
            w.ms(p.delivery_ms)?;
            w.len(p.delivery_count)?;
        }
        // Every owner of a pending entry is a consumer, as Redis requires of a loaded group.
        let mut consumers: Vec<(&Bytes, u64)> = g.consumers.iter().map(|(n, c)| (n, c.seen_ms)).collect();
        for p in g.pel.values() {
            if !g.consumers.contains_key(&p.consumer) && !consumers.iter().any(|(n, _)| **n == p.consumer) {
                consumers.push((&p.consumer, p.delivery_ms));
            }
        }
        w.len(consumers.len() as u64)?;
        for (cname, seen_ms) in consumers {
            w.string(cname)?;
            w.ms(seen_ms)?;
            let owned: Vec<&StreamId> = g.pel.iter().filter(|(_, p)| p.consumer == *cname).map(|(i, _)| i).collect();
            w.len(owned.len() as u64)?;
            for pid in owned {
                w.raw(&raw_id(*pid))?;
            }
        }
    }
    Ok(())
}

fn id<W: Write>(w: &mut Writer<W>, id: StreamId) -> Result<(), RdbError> {
    w.len(id.ms)?;
    w.len(id.seq)
}

fn raw_id(id: StreamId) -> [u8; 16] {
    let mut raw = [0u8; 16];
    raw[..8].copy_from_slice(&id.ms.to_be_bytes());
    raw[8..].copy_from_slice(&id.seq.to_be_bytes());
    raw
}

/// One node from the first entries of `entries`; how many it took (at least one).
fn build_node(entries: &[(&StreamId, &Fields)]) -> (Vec<u8>, usize) {
    let (master, master_fields) = (*entries[0].0, entries[0].1);
    let count = entries.iter().take(NODE_ENTRIES).scan(0usize, |bytes, (_, f)| {
        let first = *bytes == 0;
        *bytes += f.iter().map(|(k, v)| k.len() + v.len() + 4).sum::<usize>() + 8;
        (first || *bytes <= NODE_BYTES).then_some(())
    });
    let n = count.count();
    let mut lp = Builder::new();
    lp.int(n as i64);
    lp.int(0);
    lp.int(master_fields.len() as i64);
    for (f, _) in master_fields {
        lp.str(f);
    }
    lp.int(0);
    for (eid, fields) in &entries[..n] {
        // Stored as i64 modulo 2^64, as Redis stores them (a seq difference may be negative).
        let ms_diff = eid.ms.wrapping_sub(master.ms) as i64;
        let seq_diff = eid.seq.wrapping_sub(master.seq) as i64;
        let same = fields.len() == master_fields.len() && fields.iter().zip(master_fields).all(|(a, b)| a.0 == b.0);
        if same {
            lp.int(STREAM_ITEM_SAMEFIELDS);
            lp.int(ms_diff);
            lp.int(seq_diff);
            for (_, v) in fields.iter() {
                lp.str(v);
            }
            lp.int(fields.len() as i64 + 3);
        } else {
            lp.int(0);
            lp.int(ms_diff);
            lp.int(seq_diff);
            lp.int(fields.len() as i64);
            for (f, v) in fields.iter() {
                lp.str(f);
                lp.str(v);
            }
            lp.int(2 * fields.len() as i64 + 4);
        }
    }
    (lp.finish(), n)
}
