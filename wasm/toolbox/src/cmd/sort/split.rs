//! Finding line ends in the input buffer, eight bytes at a time (see crate::bytescan).

use crate::bytescan::{eq_lanes, load, splat};

/// Appends to `lines` the `(start, end)` range (end excludes `delim`) of
/// every `delim`-terminated line in `data[from..]`; returns where the
/// unterminated remainder (possibly empty) begins.
#[inline(never)]
pub fn lines(data: &[u8], from: usize, delim: u8, lines: &mut Vec<(usize, usize)>) -> usize {
    let pattern = splat(delim);
    let mut line_start = from;
    let mut at = from;
    let words = data[from..].chunks_exact(8);
    let tail = words.remainder().len();
    for word in words {
        // Exact per lane (no false hits), so every set bit is a delimiter.
        let mut hits = eq_lanes(load(word), pattern);
        while hits != 0 {
            let end = at + (hits.trailing_zeros() / 8) as usize;
            lines.push((line_start, end));
            line_start = end + 1;
            hits &= hits - 1;
        }
        at += 8;
    }
    for (k, &c) in data[data.len() - tail..].iter().enumerate() {
        if c == delim {
            let end = at + k;
            lines.push((line_start, end));
            line_start = end + 1;
        }
    }
    line_start
}

#[cfg(test)]
mod tests {
    use super::lines;

    fn naive(data: &[u8], from: usize, delim: u8) -> (Vec<(usize, usize)>, usize) {
        let mut out = Vec::new();
        let mut s = from;
        for i in from..data.len() {
            if data[i] == delim {
                out.push((s, i));
                s = i + 1;
            }
        }
        (out, s)
    }

    #[test]
    fn matches_a_byte_loop() {
        let cases: &[&[u8]] = &[
            b"",
            b"\n",
            b"a",
            b"a\nb",
            b"a\nb\n",
            b"\n\n\n\n\n\n\n\n\n\n",
            b"abcdefg\nabcdefgh\nabcdefghi\n",
            b"\x00\x01\n\x0b\x09\x8a\x0a\xff\xfe\x0a\x0a\x01\x00",
            b"x\r\ny\r\n\r\nzz",
            "é\nü\n€".as_bytes(),
        ];
        for data in cases {
            for delim in [b'\n', 0u8, b'\x01', 0xffu8] {
                for from in 0..=data.len().min(3) {
                    let mut got = Vec::new();
                    let rest = lines(data, from, delim, &mut got);
                    assert_eq!((got, rest), naive(data, from, delim), "{:?} {} {}", data, delim, from);
                }
            }
        }
        // Every byte value next to every other, as delimiter and not.
        let all: Vec<u8> = (0..=255u8).flat_map(|a| (0..=255u8).map(move |b| [a, b])).flatten().collect();
        for delim in [0u8, b'\n', 0x7f, 0x80, 0xff] {
            let mut got = Vec::new();
            let rest = lines(&all, 0, delim, &mut got);
            assert_eq!((got, rest), naive(&all, 0, delim));
        }
    }
}
