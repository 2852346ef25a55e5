//! CoreWorkload: properties, operation mix, key choosers and key names, as YCSB defines them.

use std::collections::BTreeMap;

use super::args::Phase;
use super::generators::{fnvhash64, zeta, InsertSequence, ScrambledZipfian, SkewedLatest, ZIPFIAN_CONSTANT};
use crate::rng::Rng;

pub const OP_READ: usize = 0;
pub const OP_UPDATE: usize = 1;
pub const OP_INSERT: usize = 2;
pub const OP_SCAN: usize = 3;
pub const OP_RMW: usize = 4;
pub const OP_NAMES: [&str; 5] = ["READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distribution {
    Uniform,
    Zipfian,
    Latest,
}

/// Which Redis commands stand for YCSB's operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommandGroup {
    /// SET / GET of one value holding all fields (MGET for scans).
    String,
    /// YCSB's Redis binding: HMSET + ZADD _indices / HGETALL / ZRANGEBYSCORE for scans.
    Hash,
}

#[derive(Clone, Debug)]
pub struct Workload {
    pub recordcount: u64,
    pub operationcount: u64,
    pub insertstart: u64,
    pub insertcount: u64,
    pub fieldcount: u32,
    pub fieldlength: u32,
    /// Cumulative proportions of READ, UPDATE, INSERT, SCAN, READ-MODIFY-WRITE.
    cumulative: [f64; 5],
    pub distribution: Distribution,
    pub maxscanlength: u64,
    pub zeropadding: usize,
    pub ordered_inserts: bool,
    pub write_all_fields: bool,
    pub group: CommandGroup,
    /// zeta(recordcount) for the `latest` distribution, computed once for all connections.
    latest_zetan: f64,
}

fn get<T: std::str::FromStr>(props: &BTreeMap<String, String>, name: &str, default: T) -> Result<T, String> {
    match props.get(name) {
        None => Ok(default),
        Some(v) => v.trim().parse().map_err(|_| format!("property {name}: '{v}' is not valid")),
    }
}

impl Workload {
    pub fn from_props(props: &BTreeMap<String, String>, phase: Phase) -> Result<Workload, String> {
        let recordcount: u64 = get(props, "recordcount", 0)?;
        if recordcount == 0 && phase == Phase::Load {
            return Err("recordcount must be at least 1".into());
        }
        let insertstart: u64 = get(props, "insertstart", 0)?;
        let insertcount: u64 = get(props, "insertcount", recordcount.saturating_sub(insertstart))?;
        let operationcount: u64 = get(props, "operationcount", 0)?;
        if phase == Phase::Run && operationcount == 0 {
            return Err("operationcount must be at least 1 for run".into());
        }
        if phase == Phase::Run && recordcount == 0 {
            return Err("recordcount (the number of loaded records) must be at least 1 for run".into());
        }
        let p = [
            get(props, "readproportion", 0.95)?,
            get(props, "updateproportion", 0.05)?,
            get(props, "insertproportion", 0.0)?,
            get(props, "scanproportion", 0.0)?,
            get(props, "readmodifywriteproportion", 0.0)?,
        ];
        if p.iter().any(|x: &f64| *x < 0.0) || p.iter().sum::<f64>() <= 0.0 {
            return Err("operation proportions must be >= 0 and not all zero".into());
        }
        let total: f64 = p.iter().sum();
        let mut cumulative = [0.0; 5];
        let mut acc = 0.0;
        for (c, x) in cumulative.iter_mut().zip(p) {
            acc += x / total;
            *c = acc;
        }
        let distribution = match props.get("requestdistribution").map(String::as_str).unwrap_or("uniform") {
            "uniform" => Distribution::Uniform,
            "zipfian" => Distribution::Zipfian,
            "latest" => Distribution::Latest,
            other => return Err(format!("requestdistribution '{other}' is not uniform, zipfian or latest")),
        };
        let group = match props.get("redis.command_group").map(String::as_str).unwrap_or("hash") {
            "string" => CommandGroup::String,
            "hash" => CommandGroup::Hash,
            other => return Err(format!("redis.command_group '{other}' is not string or hash")),
        };
        let fieldcount: u32 = get(props, "fieldcount", 10)?;
        let fieldlength: u32 = get(props, "fieldlength", 100)?;
        if fieldcount == 0 || fieldlength == 0 {
            return Err("fieldcount and fieldlength must be at least 1".into());
        }
        if fieldcount as u64 * fieldlength as u64 > 64 * 1024 * 1024 {
            return Err("fieldcount x fieldlength must be at most 64 MiB per record".into());
        }
        let maxscanlength: u64 = get(props, "maxscanlength", 1000)?;
        let latest_zetan = if distribution == Distribution::Latest && phase == Phase::Run {
            zeta(0, recordcount.max(1), ZIPFIAN_CONSTANT, 0.0)
        } else {
            0.0
        };
        Ok(Workload {
            recordcount,
            operationcount,
            insertstart,
            insertcount: insertcount.max(1),
            fieldcount,
            fieldlength,
            cumulative,
            distribution,
            maxscanlength: maxscanlength.max(1),
            zeropadding: get(props, "zeropadding", 1usize)?,
            ordered_inserts: props.get("insertorder").map(String::as_str) == Some("ordered"),
            write_all_fields: get(props, "writeallfields", false)?,
            group,
            latest_zetan,
        })
    }

    pub fn choose_op(&self, rng: &mut Rng) -> usize {
        let u = rng.next_f64();
        self.cumulative.iter().position(|c| u < *c).unwrap_or(OP_READ)
    }

    /// CoreWorkload.buildKeyName: "user" + zero padding + (hashed) key number.
    pub fn key_name(&self, keynum: u64, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(b"user");
        let n = if self.ordered_inserts { keynum } else { fnvhash64(keynum as i64) as u64 };
        let mut tmp = [0u8; 20];
        let digits = crate::proto::digits(n, &mut tmp);
        for _ in digits.len()..self.zeropadding {
            out.push(b'0');
        }
        out.extend_from_slice(digits);
    }

    /// The first key number inserts in the run phase take.
    pub fn insert_sequence(&self) -> InsertSequence {
        InsertSequence::new(self.recordcount)
    }

    pub fn key_chooser(&self) -> KeyChooser {
        match self.distribution {
            Distribution::Uniform => KeyChooser::Uniform(self.insertstart, self.insertstart + self.insertcount - 1),
            Distribution::Zipfian => {
                let insert_p = self.cumulative[OP_INSERT] - self.cumulative[OP_UPDATE];
                let expected_new = (self.operationcount as f64 * insert_p * 2.0) as u64;
                KeyChooser::Zipfian(ScrambledZipfian::new(self.insertstart, self.insertstart + self.insertcount + expected_new))
            }
            Distribution::Latest => KeyChooser::Latest(SkewedLatest::new(self.recordcount, self.latest_zetan)),
        }
    }
}

#[derive(Clone, Debug)]
pub enum KeyChooser {
    Uniform(u64, u64),
    Zipfian(ScrambledZipfian),
    Latest(SkewedLatest),
}

impl KeyChooser {
    /// CoreWorkload.nextKeynum: never a key beyond the last acknowledged insert.
    pub fn next(&mut self, rng: &mut Rng, seq: &InsertSequence) -> u64 {
        let last = seq.last();
        for _ in 0..1000 {
            let k = match self {
                KeyChooser::Uniform(lo, hi) => rng.range_inclusive(*lo, *hi),
                KeyChooser::Zipfian(z) => z.next(rng),
                KeyChooser::Latest(l) => l.next(last, rng),
            };
            if k <= last {
                return k;
            }
        }
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn key_names_are_ycsb_names() {
        let w = Workload::from_props(&props(&[("recordcount", "10")]), Phase::Load).unwrap();
        let mut k = Vec::new();
        w.key_name(0, &mut k);
        assert_eq!(k, b"user6284781860667377211");
        let w = Workload::from_props(&props(&[("recordcount", "10"), ("insertorder", "ordered"), ("zeropadding", "4")]), Phase::Load).unwrap();
        w.key_name(7, &mut k);
        assert_eq!(k, b"user0007");
    }

    #[test]
    fn operation_mix_follows_proportions() {
        let w = Workload::from_props(
            &props(&[("recordcount", "10"), ("operationcount", "10"), ("readproportion", "0.5"), ("updateproportion", "0"), ("readmodifywriteproportion", "0.5")]),
            Phase::Run,
        )
        .unwrap();
        let mut rng = Rng::new(9);
        let mut counts = [0u32; 5];
        for _ in 0..10_000 {
            counts[w.choose_op(&mut rng)] += 1;
        }
        assert_eq!(counts[OP_UPDATE] + counts[OP_INSERT] + counts[OP_SCAN], 0);
        assert!(counts[OP_READ] > 4700 && counts[OP_RMW] > 4700);
    }
}
