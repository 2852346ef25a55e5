//! wyrand: one multiply per draw, good enough statistics for load generation.

#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        let mut rng = Rng { state: seed ^ 0x9E37_79B9_7F4A_7C15 };
        rng.next_u64();
        rng
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0xa076_1d64_78bd_642f);
        let t = (self.state as u128).wrapping_mul((self.state ^ 0xe703_7ed1_a0b4_28db) as u128);
        ((t >> 64) ^ t) as u64
    }

    /// Uniform in `0..span` (span > 0), without modulo bias worth caring about.
    #[inline]
    pub fn below(&mut self, span: u64) -> u64 {
        (((self.next_u64() as u128) * (span as u128)) >> 64) as u64
    }

    /// Uniform in `min..=max`.
    #[inline]
    pub fn range_inclusive(&mut self, min: u64, max: u64) -> u64 {
        let span = max - min;
        if span == u64::MAX {
            return self.next_u64();
        }
        min + self.below(span + 1)
    }

    /// Uniform in `[0, 1)`.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Standard normal draw (Box-Muller).
    pub fn gaussian(&mut self) -> f64 {
        let mut u1 = self.next_f64();
        while u1 <= f64::MIN_POSITIVE {
            u1 = self.next_f64();
        }
        let u2 = self.next_f64();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }

    pub fn fill_printable(&mut self, buf: &mut [u8]) {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        for b in buf.iter_mut() {
            *b = ALPHABET[self.below(ALPHABET.len() as u64) as usize];
        }
    }
}

/// A seed that differs between runs (`--randomize`).
pub fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    nanos ^ ((std::process::id() as u64) << 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_stays_inside_bounds() {
        let mut rng = Rng::new(7);
        for _ in 0..10_000 {
            let v = rng.range_inclusive(5, 9);
            assert!((5..=9).contains(&v));
        }
        let f = rng.next_f64();
        assert!((0.0..1.0).contains(&f));
    }
}
