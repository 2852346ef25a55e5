//! One value of each RDB type into Basalt's [`Value`]: every type Redis 7.0 writes, the
//! legacy encodings it still loads (ziplist, zipmap, intset, quicklist of ziplists), and
//! Redis 7.2's SET_LISTPACK. Duplicates and NaN scores are refused, as Redis refuses them.

use crate::error::RdbError;
use crate::format::*;
use crate::packed::Elem;
use crate::reader::Reader;
use basalt_storage::{Value, ZSet};
use bytes::Bytes;
use std::collections::{HashMap, HashSet, VecDeque};
use std::io::Read;

/// Refuses a type byte that is no value type (checked before the key is read).
pub(crate) fn check_type(ty: u8, at: u64) -> Result<(), RdbError> {
    match ty {
        TYPE_STRING..=TYPE_ZSET_2 | TYPE_HASH_ZIPMAP..=TYPE_STREAM_LISTPACKS_3 => Ok(()),
        TYPE_MODULE_PRE_GA | TYPE_MODULE_2 => {
            Err(RdbError::Unsupported { offset: at, what: "a key of a Redis module's type (module data)".into() })
        }
        other => Err(RdbError::corrupt(at, format!("unknown value type or opcode {other}"))),
    }
}

/// Capacity to reserve for `n` claimed elements: never more than a hostile count deserves.
fn room(n: u64) -> usize {
    n.min(1024) as usize
}

pub(crate) fn value<R: Read>(rd: &mut Reader<R>, ty: u8, at: u64) -> Result<Value, RdbError> {
    let blob = |rd: &mut Reader<R>, what: &'static str| rd.read_string(what);
    let bad = |why: String| RdbError::corrupt(at, why);
    Ok(match ty {
        TYPE_STRING => Value::Str(Bytes::from(rd.read_string("a string value")?)),
        TYPE_LIST => {
            let n = rd.read_len("a list length")?;
            let mut list = VecDeque::with_capacity(room(n));
            for _ in 0..n {
                list.push_back(Bytes::from(rd.read_string("a list element")?));
            }
            Value::List(list)
        }
        TYPE_SET => {
            let n = rd.read_len("a set length")?;
            let mut set = HashSet::with_capacity(room(n));
            for _ in 0..n {
                if !set.insert(Bytes::from(rd.read_string("a set member")?)) {
                    return Err(bad("a set with a duplicate member".into()));
                }
            }
            Value::Set(Box::new(set))
        }
        TYPE_ZSET | TYPE_ZSET_2 => {
            let n = rd.read_len("a sorted set length")?;
            let mut z = ZSet::new();
            for _ in 0..n {
                let member = Bytes::from(rd.read_string("a sorted set member")?);
                let score = if ty == TYPE_ZSET { rd.read_text_double()? } else { rd.read_binary_double()? };
                zadd(&mut z, member, score).map_err(bad)?;
            }
            Value::ZSet(Box::new(z))
        }
        TYPE_HASH => {
            let n = rd.read_len("a hash length")?;
            let mut h = HashMap::with_capacity(room(n));
            for _ in 0..n {
                let field = Bytes::from(rd.read_string("a hash field")?);
                let value = Bytes::from(rd.read_string("a hash value")?);
                if h.insert(field, value).is_some() {
                    return Err(bad("a hash with a duplicate field".into()));
                }
            }
            Value::Hash(Box::new(h))
        }
        TYPE_HASH_ZIPMAP => {
            let zm = blob(rd, "a zipmap")?;
            hash_of(crate::packed::zipmap(&zm).map_err(|e| bad(e))?).map_err(bad)?
        }
        TYPE_LIST_ZIPLIST => {
            let zl = blob(rd, "a ziplist")?;
            Value::List(crate::ziplist::elements(&zl).map_err(bad)?.into_iter().map(Elem::to_bytes).collect())
        }
        TYPE_SET_INTSET => {
            let is = blob(rd, "an intset")?;
            let mut set = HashSet::new();
            for v in crate::packed::intset(&is).map_err(bad)? {
                if !set.insert(Bytes::from(v.to_string())) {
                    return Err(bad("an intset with a duplicate member".into()));
                }
            }
            Value::Set(Box::new(set))
        }
        TYPE_SET_LISTPACK => {
            let lp = blob(rd, "a listpack")?;
            let mut set = HashSet::new();
            for e in crate::listpack::elements(&lp).map_err(bad)? {
                if !set.insert(e.to_bytes()) {
                    return Err(bad("a set with a duplicate member".into()));
                }
            }
            Value::Set(Box::new(set))
        }
        TYPE_ZSET_ZIPLIST | TYPE_ZSET_LISTPACK => {
            let packed = blob(rd, "a packed sorted set")?;
            let mut z = ZSet::new();
            for pair in pairs(&packed, ty == TYPE_ZSET_ZIPLIST).map_err(bad)?.chunks_exact(2) {
                let score = pair[1].as_score().ok_or_else(|| bad("a sorted set score that is not a number".into()))?;
                zadd(&mut z, pair[0].to_bytes(), score).map_err(bad)?;
            }
            Value::ZSet(Box::new(z))
        }
        TYPE_HASH_ZIPLIST | TYPE_HASH_LISTPACK => {
            let packed = blob(rd, "a packed hash")?;
            let elems = pairs(&packed, ty == TYPE_HASH_ZIPLIST).map_err(bad)?;
            hash_of(elems.chunks_exact(2).map(|p| (p[0].to_bytes(), p[1].to_bytes())).collect()).map_err(bad)?
        }
        TYPE_LIST_QUICKLIST | TYPE_LIST_QUICKLIST_2 => {
            let nodes = rd.read_len("a quicklist length")?;
            let mut list = VecDeque::new();
            for _ in 0..nodes {
                let container = if ty == TYPE_LIST_QUICKLIST_2 { rd.read_len("a quicklist node container")? } else { QUICKLIST_NODE_PACKED };
                let node = blob(rd, "a quicklist node")?;
                match container {
                    QUICKLIST_NODE_PLAIN => list.push_back(Bytes::from(node)),
                    QUICKLIST_NODE_PACKED => {
                        let elems = if ty == TYPE_LIST_QUICKLIST { crate::ziplist::elements(&node) } else { crate::listpack::elements(&node) }
                            .map_err(bad)?;
                        if elems.is_empty() {
                            return Err(bad("an empty quicklist node".into()));
                        }
                        list.extend(elems.into_iter().map(Elem::to_bytes));
                    }
                    other => return Err(bad(format!("quicklist node container {other}"))),
                }
            }
            Value::List(list)
        }
        TYPE_STREAM_LISTPACKS | TYPE_STREAM_LISTPACKS_2 | TYPE_STREAM_LISTPACKS_3 => {
            Value::Stream(Box::new(crate::stream_load::stream(rd, ty, at)?))
        }
        other => return Err(bad(format!("unknown value type {other}"))),
    })
}

/// The elements of a packed hash or sorted set: field, value, field, value...
fn pairs(packed: &[u8], ziplist: bool) -> Result<Vec<Elem<'_>>, String> {
    let elems = if ziplist { crate::ziplist::elements(packed) } else { crate::listpack::elements(packed) }?;
    if elems.len() % 2 != 0 {
        return Err("a packed hash or sorted set with an odd number of elements".into());
    }
    Ok(elems)
}

fn zadd(z: &mut ZSet, member: Bytes, score: f64) -> Result<(), String> {
    if score.is_nan() {
        return Err("a sorted set with a NaN score".into());
    }
    if !z.insert(member, score) {
        return Err("a sorted set with a duplicate member".into());
    }
    Ok(())
}

fn hash_of(pairs: Vec<(Bytes, Bytes)>) -> Result<Value, String> {
    let mut h = HashMap::with_capacity(pairs.len());
    for (f, v) in pairs {
        if h.insert(f, v).is_some() {
            return Err("a hash with a duplicate field".into());
        }
    }
    Ok(Value::Hash(Box::new(h)))
}

#[cfg(test)]
mod tests {
    //! The legacy encodings Redis 7.0 still loads but no longer writes, in an RDB 9 made by hand.
    use crate::format::*;
    use crate::packed::Elem;
    use crate::reader::{Item, Limits, Reader};
    use crate::ziplist::tests::build as ziplist;
    use basalt_storage::Value;
    use bytes::Bytes;

    fn string(out: &mut Vec<u8>, s: &[u8]) {
        assert!(s.len() < 64);
        out.push(s.len() as u8);
        out.extend_from_slice(s);
    }

    fn key(out: &mut Vec<u8>, ty: u8, name: &str) {
        out.push(ty);
        string(out, name.as_bytes());
    }

    #[test]
    fn legacy_encodings_of_rdb_9() {
        let mut f = b"REDIS0009".to_vec();
        f.push(OP_AUX);
        string(&mut f, b"redis-ver");
        string(&mut f, b"6.0.0");
        f.extend([OP_SELECTDB, 2, OP_RESIZEDB, 8, 1]);
        // Expiry in seconds, LRU idle and LFU counter before a ziplist list.
        f.push(OP_EXPIRETIME);
        f.extend_from_slice(&2_000_000_000i32.to_le_bytes());
        f.extend([OP_IDLE, 5, OP_FREQ, 3]);
        key(&mut f, TYPE_LIST_ZIPLIST, "zl");
        let zl = ziplist(&[Elem::Str(b"a"), Elem::Int(-7), Elem::Int(5)]);
        f.push(zl.len() as u8);
        f.extend_from_slice(&zl);
        key(&mut f, TYPE_ZSET_ZIPLIST, "zz");
        let zl = ziplist(&[Elem::Str(b"m"), Elem::Str(b"1.5"), Elem::Str(b"n"), Elem::Int(-3)]);
        f.push(zl.len() as u8);
        f.extend_from_slice(&zl);
        key(&mut f, TYPE_HASH_ZIPLIST, "hz");
        let zl = ziplist(&[Elem::Str(b"f"), Elem::Int(10)]);
        f.push(zl.len() as u8);
        f.extend_from_slice(&zl);
        key(&mut f, TYPE_HASH_ZIPMAP, "hm");
        let zm = [1u8, 1, b'k', 1, 0, b'v', 255];
        f.push(zm.len() as u8);
        f.extend_from_slice(&zm);
        key(&mut f, TYPE_SET_INTSET, "is");
        let mut is = vec![4, 0, 0, 0, 2, 0, 0, 0];
        is.extend_from_slice(&(-70000i32).to_le_bytes());
        is.extend_from_slice(&9i32.to_le_bytes());
        f.push(is.len() as u8);
        f.extend_from_slice(&is);
        key(&mut f, TYPE_LIST_QUICKLIST, "ql");
        f.push(2);
        for node in [ziplist(&[Elem::Str(b"x")]), ziplist(&[Elem::Str(b"y"), Elem::Int(12)])] {
            f.push(node.len() as u8);
            f.extend_from_slice(&node);
        }
        // Text scores: a number, +inf (254), -inf (255); an int-encoded member.
        key(&mut f, TYPE_ZSET, "zt");
        f.push(3);
        string(&mut f, b"a");
        string(&mut f, b"2.25");
        string(&mut f, b"b");
        f.push(254);
        f.extend([0xC0, 0xF9]); // member "-7", INT8
        f.push(255);
        // An LZF string: "abcabcab" from a literal and a back reference.
        key(&mut f, TYPE_STRING, "lz");
        f.extend([0xC3, 6, 8, 2, b'a', b'b', b'c', 3 << 5, 2]);
        f.push(OP_EOF);
        let crc = crate::source::CRC64.checksum(&f);
        f.extend_from_slice(&crc.to_le_bytes());

        let mut r = Reader::new(f.as_slice(), Limits::default()).unwrap();
        assert_eq!(r.version(), 9);
        let mut items = Vec::new();
        while let Some(item) = r.next_item().unwrap() {
            items.push(item);
        }
        assert_eq!(items[0], Item::Aux { key: Bytes::from("redis-ver"), value: Bytes::from("6.0.0") });
        assert_eq!(items[1], Item::ResizeDb { db: 2, keys: 8, expires: 1 });
        let keys: Vec<_> = items[2..]
            .iter()
            .map(|i| match i {
                Item::Key(kv) => kv.clone(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(keys.len(), 8);
        assert!(keys.iter().all(|k| k.db == 2));
        assert_eq!(keys[0].expires_at_ms, Some(2_000_000_000_000));
        assert!(keys[1..].iter().all(|k| k.expires_at_ms.is_none()));
        let list = |v: &Value| match v {
            Value::List(l) => l.iter().map(|e| String::from_utf8_lossy(e).into_owned()).collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        assert_eq!(list(&keys[0].value), ["a", "-7", "5"]);
        let Value::ZSet(z) = &keys[1].value else { panic!() };
        assert_eq!(z.iter().map(|(m, s)| (m.clone(), s)).collect::<Vec<_>>(), vec![(Bytes::from("n"), -3.0), (Bytes::from("m"), 1.5)]);
        let Value::Hash(h) = &keys[2].value else { panic!() };
        assert_eq!(h.get(&b"f"[..]), Some(&Bytes::from("10")));
        let Value::Hash(h) = &keys[3].value else { panic!() };
        assert_eq!(h.get(&b"k"[..]), Some(&Bytes::from("v")));
        let Value::Set(s) = &keys[4].value else { panic!() };
        assert!(s.contains(&b"-70000"[..]) && s.contains(&b"9"[..]) && s.len() == 2);
        assert_eq!(list(&keys[5].value), ["x", "y", "12"]);
        let Value::ZSet(z) = &keys[6].value else { panic!() };
        assert_eq!(z.score(b"a"), Some(2.25));
        assert_eq!(z.score(b"b"), Some(f64::INFINITY));
        assert_eq!(z.score(b"-7"), Some(f64::NEG_INFINITY));
        assert_eq!(keys[7].value, Value::Str(Bytes::from("abcabcab")));
    }

    #[test]
    fn crc64_is_redis_crc64() {
        // The check value of Redis' crc64.c (Jones, reflected).
        assert_eq!(crate::source::CRC64.checksum(b"123456789"), 0xe9c6d914c4b8d9ca);
    }
}
