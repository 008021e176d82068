//! Seeded random numbers with a stable algorithm.
//!
//! Every random choice in pseudoku draws from [`Rng`]: xoshiro256++ seeded through SplitMix64,
//! with bounded integers by Lemire's multiply-and-reject method. All three are fixed published
//! algorithms implemented or pinned here, so the same seed gives the same stream on every
//! platform and with every future version of the `rand` crates.

use rand::{RngCore, SeedableRng};

use rand_xoshiro::Xoshiro256PlusPlus;

/// A seeded random number generator (xoshiro256++).
#[derive(Clone, Debug)]
pub struct Rng(Xoshiro256PlusPlus);

impl Rng {
    /// A generator seeded from a 64-bit seed.
    pub fn new(seed: u64) -> Rng {
        // The state is four consecutive SplitMix64 outputs, as the xoshiro authors recommend;
        // done here rather than by the crate so that it can never change under us.
        let mut bytes = [0u8; 32];
        let mut x = seed;
        for chunk in bytes.chunks_exact_mut(8) {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            chunk.copy_from_slice(&splitmix64_mix(x).to_le_bytes());
        }
        Rng::from_bytes(bytes)
    }

    /// A generator for the `index`-th job of a run seeded with `seed`: independent of how jobs
    /// are spread over threads.
    pub fn for_job(seed: u64, index: u64) -> Rng {
        Rng::new(splitmix64(seed ^ splitmix64(index.wrapping_add(0x5EED))))
    }

    /// A generator seeded from 32 bytes (for example a blake3 key).
    pub fn from_bytes(seed: [u8; 32]) -> Rng {
        Rng(Xoshiro256PlusPlus::from_seed(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform float in [0, 1) (the top 53 bits of the next draw).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform integer in `0..n`. `n` must be positive.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "Rng::below(0)");
        // Lemire, "Fast Random Integer Generation in an Interval" (2019).
        let n64 = u64::from(n);
        let mut m = (self.next_u64() >> 32) * n64;
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = (self.next_u64() >> 32) * n64;
            }
        }
        (m >> 32) as u32
    }

    /// A uniform index in `0..n` for slices.
    pub fn index(&mut self, n: usize) -> usize {
        self.below(u32::try_from(n).expect("index range fits in u32")) as usize
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }

    /// Shuffles `items` uniformly (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}

impl Rng {
    /// A seed for a run that was given none (`get` without `--seed`): the clock and the
    /// process id, mixed. Two runs get different draws; neither can be reproduced.
    pub fn clock_seed() -> u64 {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        splitmix64(t ^ u64::from(std::process::id()) << 32)
    }
}

/// One SplitMix64 step from state `x`: a fixed bijective mix of 64 bits.
pub fn splitmix64(x: u64) -> u64 {
    splitmix64_mix(x.wrapping_add(0x9E37_79B9_7F4A_7C15))
}

/// The SplitMix64 output function.
fn splitmix64_mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_is_stable() {
        // Pinned: a change here changes every bank built from a seed.
        let mut r = Rng::new(42);
        let v: Vec<u32> = (0..5).map(|_| r.below(1000)).collect();
        let mut r2 = Rng::new(42);
        let v2: Vec<u32> = (0..5).map(|_| r2.below(1000)).collect();
        assert_eq!(v, v2);
        assert_eq!(v, STABLE_42);
    }

    const STABLE_42: [u32; 5] = [814, 318, 983, 701, 793];

    #[test]
    fn below_is_in_range_and_covers() {
        let mut r = Rng::new(7);
        let mut seen = [false; 6];
        for _ in 0..1000 {
            let x = r.below(6);
            assert!(x < 6);
            seen[x as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
