//! Word-at-a-time byte scanning for the line tools (wc, grep, cut, sort, awk).
//!
//! The module is built without wasm SIMD and memchr 2.5's portable code
//! works on `usize`, which is 4 bytes on wasm32, so these helpers read the
//! haystack 8 bytes at a time as `u64` (wasm has native 64-bit integers and
//! `i64.popcnt`). Every mask below is exact per byte: carries never cross
//! byte lanes, so there is no "maybe" lane to re-check.

const LO7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The top bit of every lane: the bit the lane masks below use.
pub const HI: u64 = 0x8080_8080_8080_8080;
const ONES: u64 = 0x0101_0101_0101_0101;

/// `byte` in every lane.
#[inline(always)]
pub fn splat(byte: u8) -> u64 {
    ONES.wrapping_mul(byte as u64)
}

/// Reads 8 bytes little-endian (lane i is byte i of the slice).
#[inline(always)]
pub fn load(chunk: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&chunk[..8]);
    u64::from_le_bytes(a)
}

/// 0x80 in each lane that is zero, 0 elsewhere. Adding 0x7f to the low
/// seven bits sets a lane's top bit iff those bits are non-zero; or-ing the
/// lane itself covers a set top bit.
#[inline(always)]
pub fn zero_lanes(x: u64) -> u64 {
    !(((x & LO7).wrapping_add(LO7)) | x) & HI
}

/// 0x80 in each lane of `x` equal to the lane of `pat` (a `splat`).
#[inline(always)]
pub fn eq_lanes(x: u64, pat: u64) -> u64 {
    zero_lanes(x ^ pat)
}

/// How many times `needle` occurs in `hay`.
pub fn count_byte(hay: &[u8], needle: u8) -> usize {
    let pat = splat(needle);
    let mut n = 0usize;
    let mut blocks = hay.chunks_exact(32);
    for b in &mut blocks {
        // Or-ing four lane masks shifted apart keeps them disjoint (each
        // mask only uses bit 7 of a lane), so one popcount counts all four.
        let m = eq_lanes(load(&b[0..]), pat)
            | eq_lanes(load(&b[8..]), pat) >> 1
            | eq_lanes(load(&b[16..]), pat) >> 2
            | eq_lanes(load(&b[24..]), pat) >> 3;
        n += m.count_ones() as usize;
    }
    let rest = blocks.remainder();
    let mut words = rest.chunks_exact(8);
    for w in &mut words {
        n += eq_lanes(load(w), pat).count_ones() as usize;
    }
    n + words.remainder().iter().filter(|&&b| b == needle).count()
}

/// Index of the first `needle` in `hay`.
pub fn find_byte(hay: &[u8], needle: u8) -> Option<usize> {
    let pat = splat(needle);
    let mut i = 0;
    while i + 16 <= hay.len() {
        let a = eq_lanes(load(&hay[i..]), pat);
        let b = eq_lanes(load(&hay[i + 8..]), pat);
        if a | b != 0 {
            return Some(if a != 0 { i + (a.trailing_zeros() / 8) as usize } else { i + 8 + (b.trailing_zeros() / 8) as usize });
        }
        i += 16;
    }
    while i + 8 <= hay.len() {
        let a = eq_lanes(load(&hay[i..]), pat);
        if a != 0 {
            return Some(i + (a.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    hay[i..].iter().position(|&b| b == needle).map(|p| i + p)
}

/// Index of the last `needle` in `hay`.
pub fn rfind_byte(hay: &[u8], needle: u8) -> Option<usize> {
    let pat = splat(needle);
    let mut end = hay.len();
    while end >= 8 {
        let a = eq_lanes(load(&hay[end - 8..]), pat);
        if a != 0 {
            return Some(end - 8 + (7 - a.leading_zeros() / 8) as usize);
        }
        end -= 8;
    }
    hay[..end].iter().rposition(|&b| b == needle)
}

/// Index of the first occurrence of `needle` in `hay` (an empty needle is
/// at 0). Each step tests 8 candidate starts at once: lanes where both the
/// needle's first byte and, `needle.len() - 1` further on, its last byte
/// are in place; only those few are compared in full. Two bytes far apart
/// are much rarer together than any single byte, which is what memchr's
/// memmem prefilter (one byte, 4 at a time on wasm32) relies on alone.
pub fn find_lit(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let k = match needle.len() {
        0 => return Some(0),
        1 => return find_byte(hay, needle[0]),
        n if n > hay.len() => return None,
        n => n - 1,
    };
    let (first, last) = (splat(needle[0]), splat(needle[k]));
    // Candidate starts i with i + k + 8 <= hay.len() are tested by lanes.
    let mut i = 0;
    while i + k + 8 <= hay.len() {
        let mut m = eq_lanes(load(&hay[i..]), first) & eq_lanes(load(&hay[i + k..]), last);
        while m != 0 {
            let at = i + (m.trailing_zeros() / 8) as usize;
            if same(&hay[at..at + needle.len()], needle) {
                return Some(at);
            }
            m &= m - 1;
        }
        i += 8;
    }
    while i + needle.len() <= hay.len() {
        if &hay[i..i + needle.len()] == needle {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Slice equality for short equal-length slices, inline: `==` on slices
/// calls out to memcmp, which costs more than the compare here.
#[inline(always)]
fn same(a: &[u8], b: &[u8]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_count(h: &[u8], n: u8) -> usize {
        h.iter().filter(|&&b| b == n).count()
    }

    /// Haystacks covering every lane position, lengths around the 8/16/32
    /// steps, high bytes (which must not look like matches) and NULs.
    fn samples() -> Vec<Vec<u8>> {
        let mut v: Vec<Vec<u8>> = vec![Vec::new(), b"\n".to_vec(), b"abc".to_vec(), vec![0x8a; 40], vec![0; 33], vec![b'\n'; 65]];
        for len in [1usize, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100] {
            for pos in 0..len {
                let mut h: Vec<u8> = (0..len).map(|i| (i as u8).wrapping_mul(37) | 0x80).collect();
                h[pos] = b'\n';
                v.push(h.clone());
                h[len - 1 - pos / 2] = b'\n';
                v.push(h);
            }
        }
        let mut mixed = Vec::new();
        for i in 0..70_000u32 {
            mixed.push(match i % 13 {
                0 => b'\n',
                1 => 0,
                2 => b'\r',
                3 => 0xff,
                4 => 0x8a,
                5 => 0x0b,
                _ => b'a' + (i % 26) as u8,
            });
        }
        v.push(mixed);
        v
    }

    #[test]
    fn matches_naive() {
        for h in samples() {
            for needle in [b'\n', 0u8, 0x8a, 0xff, b'a', b'z'] {
                assert_eq!(count_byte(&h, needle), naive_count(&h, needle), "count {:?} in {} bytes", needle, h.len());
                assert_eq!(find_byte(&h, needle), h.iter().position(|&b| b == needle), "find {:?}", needle);
                assert_eq!(rfind_byte(&h, needle), h.iter().rposition(|&b| b == needle), "rfind {:?}", needle);
            }
        }
    }

    #[test]
    fn literal_search() {
        let hays: &[&[u8]] = &[b"", b"a", b"kavovo", b"xkavovo", b"kavovkavovo", b"kavov", b"aaaaaaaaaaaaaaaaaaaab", b"ab\nab\x80\xffab"];
        let needles: &[&[u8]] = &[b"", b"a", b"ab", b"kavovo", b"aab", b"\nab", b"\xffa", b"b"];
        let mut all: Vec<Vec<u8>> = hays.iter().map(|h| h.to_vec()).collect();
        all.extend(samples());
        for h in &all {
            for n in needles.iter().copied().chain([&b"\na\n"[..], b"\x8a\x8a"]) {
                let want = (0..=h.len()).find(|&i| h[i..].starts_with(n));
                assert_eq!(find_lit(h, n), want, "{:?} in {:?}", n, &h[..h.len().min(40)]);
            }
        }
    }

    #[test]
    fn lanes() {
        let cases: &[(u64, u64)] = &[
            (0, HI),
            (u64::MAX, 0),
            (0x0100_8000_0001_0000, 0x0080_0080_8000_8080),
            (0x8080_8080_8080_8080, 0),
        ];
        for &(x, want) in cases {
            assert_eq!(zero_lanes(x), want, "{:#x}", x);
        }
    }
}
