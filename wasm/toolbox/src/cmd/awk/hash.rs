//! A quick non-cryptographic hasher for the interpreter's string-keyed maps
//! (variables, arrays, compiled regexes). std's default SipHash costs more
//! than the rest of a variable lookup; awk programs are trusted input, so
//! collision resistance against an adversary does not matter here.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

const K: u64 = 0x9E37_79B9_7F4A_7C15;

#[derive(Default, Clone, Copy)]
pub struct WordHasher(u64);

impl WordHasher {
    #[inline]
    fn mix(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(23) ^ w).wrapping_mul(K);
    }
}

impl Hasher for WordHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // Eight bytes per step; the tail is zero-padded (the length marker
        // that str's Hash writes afterwards keeps "a" and "a\0" apart).
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.mix(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.mix(i as u64 | 0x100);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.mix(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // The multiply leaves the high bits best mixed; fold them down, since
        // the table picks buckets with the low bits.
        self.0 ^ (self.0 >> 29)
    }
}

/// String-keyed map with the quick hasher.
pub type Map<V> = HashMap<String, V, BuildHasherDefault<WordHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    fn h(s: &str) -> u64 {
        let mut x = WordHasher::default();
        s.hash(&mut x);
        x.finish()
    }

    #[test]
    fn distinct_keys_hash_apart() {
        let keys = ["", "a", "a\0", "\0", "ab", "ba", "abcdefgh", "abcdefgh\0", "abcdefghi", "1", "10", "01"];
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(h(a), h(b), "{:?} vs {:?}", a, b);
            }
        }
        let mut m: Map<i32> = Map::default();
        for i in 0..10000 {
            m.insert(i.to_string(), i);
        }
        for i in 0..10000 {
            assert_eq!(m.get(&i.to_string()), Some(&i));
        }
    }
}
