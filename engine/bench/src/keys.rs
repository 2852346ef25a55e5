//! Key numbers, value sizes and value bytes, as memtier's object generator draws them.

use crate::rng::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyPattern {
    /// Uniform over the range.
    Random,
    /// Each client walks the whole range in order, wrapping.
    Sequential,
    /// Normal around the median with `--key-stddev`, clamped to the range.
    Gaussian,
    /// The range is cut into one slice per connection; each walks its own slice.
    Parallel,
}

impl KeyPattern {
    pub fn parse(s: &str) -> Result<KeyPattern, String> {
        match s {
            "R" => Ok(KeyPattern::Random),
            "S" => Ok(KeyPattern::Sequential),
            "G" => Ok(KeyPattern::Gaussian),
            "P" => Ok(KeyPattern::Parallel),
            other => Err(format!("key pattern '{other}' is not one of R, S, G, P")),
        }
    }

    pub fn letter(self) -> char {
        match self {
            KeyPattern::Random => 'R',
            KeyPattern::Sequential => 'S',
            KeyPattern::Gaussian => 'G',
            KeyPattern::Parallel => 'P',
        }
    }
}

/// Draws key numbers for one connection and one command type.
#[derive(Clone, Debug)]
pub struct KeyGen {
    pattern: KeyPattern,
    min: u64,
    max: u64,
    next: u64,
    median: f64,
    stddev: f64,
}

impl KeyGen {
    /// `conn_index` of `conn_count` connections picks the slice for `P`.
    pub fn new(
        pattern: KeyPattern,
        min: u64,
        max: u64,
        median: f64,
        stddev: f64,
        conn_index: u64,
        conn_count: u64,
    ) -> KeyGen {
        let (min, max) = if pattern == KeyPattern::Parallel {
            let span = (max - min).saturating_add(1);
            let slice = (span / conn_count.max(1)).max(1);
            let lo = (min + slice * conn_index).min(max);
            let hi = if conn_index + 1 == conn_count { max } else { (lo + slice - 1).min(max) };
            (lo, hi)
        } else {
            (min, max)
        };
        KeyGen { pattern, min, max, next: min, median, stddev }
    }

    #[inline]
    pub fn next(&mut self, rng: &mut Rng) -> u64 {
        match self.pattern {
            KeyPattern::Random => rng.range_inclusive(self.min, self.max),
            KeyPattern::Sequential | KeyPattern::Parallel => {
                let k = self.next;
                self.next = if k >= self.max { self.min } else { k + 1 };
                k
            }
            KeyPattern::Gaussian => {
                for _ in 0..64 {
                    let v = (self.median + rng.gaussian() * self.stddev).round();
                    if v >= self.min as f64 && v <= self.max as f64 {
                        return v as u64;
                    }
                }
                // Far tails only: clamp rather than loop.
                (self.median.round().max(self.min as f64).min(self.max as f64)) as u64
            }
        }
    }

    pub fn bounds(&self) -> (u64, u64) {
        (self.min, self.max)
    }
}

#[derive(Clone, Debug)]
pub enum DataSizes {
    Fixed(u32),
    Range { min: u32, max: u32, sequential: bool },
    /// (size, cumulative weight)
    List(Vec<(u32, u64)>),
}

impl DataSizes {
    pub fn from_flags(
        size: Option<u32>,
        range: Option<&str>,
        list: Option<&str>,
        pattern: &str,
    ) -> Result<DataSizes, String> {
        let sequential = match pattern {
            "R" => false,
            "S" => true,
            other => return Err(format!("--data-size-pattern must be R or S, got '{other}'")),
        };
        let given = [size.is_some(), range.is_some(), list.is_some()].iter().filter(|b| **b).count();
        if given > 1 {
            return Err("give only one of --data-size, --data-size-range, --data-size-list".into());
        }
        if let Some(r) = range {
            let (a, b) = r
                .split_once(['-', ':'])
                .ok_or_else(|| format!("--data-size-range must look like MIN-MAX, got '{r}'"))?;
            let min: u32 = a.parse().map_err(|_| format!("--data-size-range: bad minimum '{a}'"))?;
            let max: u32 = b.parse().map_err(|_| format!("--data-size-range: bad maximum '{b}'"))?;
            if min == 0 || min > max {
                return Err("--data-size-range needs 1 <= MIN <= MAX".into());
            }
            return Ok(DataSizes::Range { min, max, sequential });
        }
        if let Some(l) = list {
            let mut entries = Vec::new();
            let mut total = 0u64;
            for item in l.split(',') {
                let (s, w) = item
                    .split_once(':')
                    .ok_or_else(|| format!("--data-size-list items look like SIZE:WEIGHT, got '{item}'"))?;
                let s: u32 = s.parse().map_err(|_| format!("--data-size-list: bad size '{s}'"))?;
                let w: u64 = w.parse().map_err(|_| format!("--data-size-list: bad weight '{w}'"))?;
                total += w;
                entries.push((s, total));
            }
            if total == 0 {
                return Err("--data-size-list weights add up to zero".into());
            }
            return Ok(DataSizes::List(entries));
        }
        let size = size.unwrap_or(32);
        if size == 0 {
            return Err("--data-size must be at least 1".into());
        }
        Ok(DataSizes::Fixed(size))
    }

    pub fn max(&self) -> u32 {
        match self {
            DataSizes::Fixed(s) => *s,
            DataSizes::Range { max, .. } => *max,
            DataSizes::List(l) => l.iter().map(|(s, _)| *s).max().unwrap_or(1),
        }
    }
}

/// Value bytes for one connection: a pool a little larger than the biggest value; each
/// request takes a slice at a random offset, so random data varies without being regenerated.
pub struct ValueSource {
    pool: Vec<u8>,
    sizes: DataSizes,
    seq_next: u32,
    random: bool,
}

const POOL_SLACK: usize = 4096;

impl ValueSource {
    pub fn new(sizes: DataSizes, random: bool, rng: &mut Rng) -> ValueSource {
        let len = sizes.max() as usize + POOL_SLACK;
        let mut pool = vec![b'x'; len];
        if random {
            rng.fill_printable(&mut pool);
        }
        let seq_next = match sizes {
            DataSizes::Range { min, .. } => min,
            _ => 0,
        };
        ValueSource { pool, sizes, seq_next, random }
    }

    #[inline]
    pub fn next<'a>(&'a mut self, rng: &mut Rng) -> &'a [u8] {
        let size = match &self.sizes {
            DataSizes::Fixed(s) => *s,
            DataSizes::Range { min, max, sequential: false } => rng.range_inclusive(*min as u64, *max as u64) as u32,
            DataSizes::Range { min, max, sequential: true } => {
                let s = self.seq_next;
                self.seq_next = if s >= *max { *min } else { s + 1 };
                s
            }
            DataSizes::List(list) => {
                let total = list.last().map(|(_, w)| *w).unwrap_or(1);
                let pick = rng.below(total);
                list.iter().find(|(_, w)| pick < *w).map(|(s, _)| *s).unwrap_or(list[0].0)
            }
        } as usize;
        let offset = if self.random { rng.below(POOL_SLACK as u64) as usize } else { 0 };
        &self.pool[offset..offset + size]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_slices_cover_the_range_without_overlap() {
        let mut seen = std::collections::HashSet::new();
        let mut rng = Rng::new(1);
        for i in 0..4 {
            let mut g = KeyGen::new(KeyPattern::Parallel, 1, 100, 0.0, 0.0, i, 4);
            let (lo, hi) = g.bounds();
            for _ in lo..=hi {
                assert!(seen.insert(g.next(&mut rng)));
            }
        }
        assert_eq!(seen.len(), 100);
        assert_eq!(*seen.iter().min().unwrap(), 1);
        assert_eq!(*seen.iter().max().unwrap(), 100);
    }

    #[test]
    fn gaussian_stays_in_range_and_centres() {
        let mut rng = Rng::new(3);
        let mut g = KeyGen::new(KeyPattern::Gaussian, 0, 1000, 500.0, 50.0, 0, 1);
        let mut sum = 0u64;
        for _ in 0..10_000 {
            let k = g.next(&mut rng);
            assert!(k <= 1000);
            sum += k;
        }
        let mean = sum as f64 / 10_000.0;
        assert!((mean - 500.0).abs() < 10.0, "mean {mean}");
    }

    #[test]
    fn value_sizes_follow_the_range() {
        let mut rng = Rng::new(5);
        let sizes = DataSizes::from_flags(None, Some("10-20"), None, "R").unwrap();
        let mut v = ValueSource::new(sizes, true, &mut rng);
        for _ in 0..1000 {
            let len = v.next(&mut rng).len();
            assert!((10..=20).contains(&len));
        }
    }
}
