//! YCSB's number generators, with YCSB's arithmetic (site.ycsb.generator.*, site.ycsb.Utils).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::rng::Rng;

pub const ZIPFIAN_CONSTANT: f64 = 0.99;
/// ScrambledZipfianGenerator draws from this many items, then hashes into the key range.
pub const SCRAMBLED_ITEM_COUNT: u64 = 10_000_000_000;
/// zeta(SCRAMBLED_ITEM_COUNT + 1, 0.99), precomputed by YCSB.
pub const SCRAMBLED_ZETAN: f64 = 26.46902820178302;

/// Utils.fnvhash64: FNV-1a over the 8 low-to-high bytes, then Math.abs of the signed result.
pub fn fnvhash64(mut val: i64) -> i64 {
    let mut hash: i64 = 0xCBF29CE484222325u64 as i64;
    for _ in 0..8 {
        let octet = val & 0xff;
        val >>= 8;
        hash ^= octet;
        hash = hash.wrapping_mul(1_099_511_628_211);
    }
    hash.wrapping_abs()
}

/// Java's String.hashCode, which YCSB's Redis binding uses as the `_indices` score.
pub fn java_string_hash(s: &[u8]) -> i32 {
    s.iter().fold(0i32, |h, &b| h.wrapping_mul(31).wrapping_add(b as i32))
}

pub fn zeta(from: u64, to: u64, theta: f64, initial: f64) -> f64 {
    let mut sum = initial;
    for i in from..to {
        sum += 1.0 / ((i + 1) as f64).powf(theta);
    }
    sum
}

/// ZipfianGenerator: item `base` is the most popular, then `base + 1`, ...
#[derive(Clone, Debug)]
pub struct Zipfian {
    items: u64,
    base: u64,
    theta: f64,
    zeta2theta: f64,
    alpha: f64,
    zetan: f64,
    eta: f64,
    count_for_zeta: u64,
}

impl Zipfian {
    pub fn new(min: u64, max: u64, theta: f64, zetan: f64) -> Zipfian {
        let items = max - min + 1;
        let zeta2theta = zeta(0, 2, theta, 0.0);
        let eta = (1.0 - (2.0 / items as f64).powf(1.0 - theta)) / (1.0 - zeta2theta / zetan);
        Zipfian { items, base: min, theta, zeta2theta, alpha: 1.0 / (1.0 - theta), zetan, eta, count_for_zeta: items }
    }

    pub fn with_items(min: u64, max: u64) -> Zipfian {
        Zipfian::new(min, max, ZIPFIAN_CONSTANT, zeta(0, max - min + 1, ZIPFIAN_CONSTANT, 0.0))
    }

    /// nextLong(itemcount): grows zeta incrementally when the item count goes up, as YCSB does
    /// (and, like YCSB, keeps `eta`'s first term on the original item count).
    pub fn next_long(&mut self, itemcount: u64, rng: &mut Rng) -> u64 {
        if itemcount > self.count_for_zeta {
            self.zetan = zeta(self.count_for_zeta, itemcount, self.theta, self.zetan);
            self.count_for_zeta = itemcount;
            self.eta = (1.0 - (2.0 / self.items as f64).powf(1.0 - self.theta)) / (1.0 - self.zeta2theta / self.zetan);
        }
        let u = rng.next_f64();
        let uz = u * self.zetan;
        if uz < 1.0 {
            return self.base;
        }
        if uz < 1.0 + 0.5f64.powf(self.theta) {
            return self.base + 1;
        }
        self.base + (itemcount as f64 * (self.eta * u - self.eta + 1.0).powf(self.alpha)) as u64
    }

    pub fn next(&mut self, rng: &mut Rng) -> u64 {
        self.next_long(self.items, rng)
    }
}

/// ScrambledZipfianGenerator: zipfian popularity spread over the range by FNV hashing.
#[derive(Clone, Debug)]
pub struct ScrambledZipfian {
    min: u64,
    itemcount: u64,
    gen: Zipfian,
}

impl ScrambledZipfian {
    pub fn new(min: u64, max: u64) -> ScrambledZipfian {
        ScrambledZipfian {
            min,
            itemcount: max - min + 1,
            gen: Zipfian::new(0, SCRAMBLED_ITEM_COUNT, ZIPFIAN_CONSTANT, SCRAMBLED_ZETAN),
        }
    }

    pub fn next(&mut self, rng: &mut Rng) -> u64 {
        let v = self.gen.next(rng);
        self.min + (fnvhash64(v as i64) as u64) % self.itemcount
    }
}

/// AcknowledgedCounterGenerator, shared by all connections: inserts take the next number;
/// `last()` is the highest number whose insert finished (readers never pick keys beyond it).
#[derive(Debug)]
pub struct InsertSequence {
    next: AtomicU64,
    acked: AtomicU64,
}

impl InsertSequence {
    pub fn new(start: u64) -> InsertSequence {
        InsertSequence { next: AtomicU64::new(start), acked: AtomicU64::new(start.saturating_sub(1)) }
    }

    pub fn take(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    pub fn acknowledge(&self, n: u64) {
        self.acked.fetch_max(n, Ordering::Relaxed);
    }

    pub fn last(&self) -> u64 {
        self.acked.load(Ordering::Relaxed)
    }
}

/// SkewedLatestGenerator: the most recently inserted keys are the most popular.
#[derive(Clone, Debug)]
pub struct SkewedLatest {
    zipf: Zipfian,
}

impl SkewedLatest {
    /// `zetan` = zeta(items) for the starting record count, computed once and shared.
    pub fn new(items: u64, zetan: f64) -> SkewedLatest {
        SkewedLatest { zipf: Zipfian::new(0, items.max(1) - 1, ZIPFIAN_CONSTANT, zetan) }
    }

    pub fn next(&mut self, last: u64, rng: &mut Rng) -> u64 {
        last - self.zipf.next_long(last.max(1), rng).min(last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_ycsb() {
        // YCSB's first hashed key is the well-known "user6284781860667377211".
        assert_eq!(fnvhash64(0), 6284781860667377211);
        assert_eq!(fnvhash64(1), 8517097267634966620);
        assert_eq!(java_string_hash(b"abc"), 96354);
    }

    #[test]
    fn zipfian_prefers_small_items() {
        let mut rng = Rng::new(11);
        let mut z = Zipfian::with_items(0, 999);
        let mut zeros = 0;
        let mut in_range = true;
        for _ in 0..20_000 {
            let v = z.next(&mut rng);
            in_range &= v <= 999;
            zeros += usize::from(v == 0);
        }
        assert!(in_range);
        // P(0) = 1/zeta(1000, 0.99) ~ 0.13
        assert!(zeros > 2000 && zeros < 3400, "zeros {zeros}");
    }

    #[test]
    fn scrambled_and_latest_stay_in_range() {
        let mut rng = Rng::new(13);
        let mut s = ScrambledZipfian::new(100, 199);
        let mut l = SkewedLatest::new(100, zeta(0, 100, ZIPFIAN_CONSTANT, 0.0));
        for _ in 0..10_000 {
            assert!((100..=199).contains(&s.next(&mut rng)));
            assert!(l.next(150, &mut rng) <= 150);
        }
    }
}
