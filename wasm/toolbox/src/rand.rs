//! A small non-cryptographic random source (xorshift64*), seeded once from
//! std's RandomState, which WASI fills from the host's random source.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

pub struct Rng(u64);

impl Rng {
    pub fn new() -> Rng {
        let mut h = RandomState::new().build_hasher();
        h.write_u64(0x9e37_79b9_7f4a_7c15);
        Rng(h.finish() | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

impl Default for Rng {
    fn default() -> Self {
        Rng::new()
    }
}
