//! Output of sorted lines, gathered into one write per read-buffer's worth.
//!
//! Never one huge write either: Node's WASI copies each fd_write into a
//! fresh host allocation, and a multi-megabyte one can set off a garbage
//! collection that aborts the host mid-call.

use crate::input;
use std::io::{self, Write};

pub struct Staged {
    buf: Vec<u8>,
    len: usize,
}

impl Staged {
    pub fn new() -> Self {
        Staged { buf: vec![0; input::BUF], len: 0 }
    }

    /// Appends `line` and its terminator, writing out the buffer first
    /// when they do not fit; a line longer than the buffer goes straight
    /// through.
    pub fn line(&mut self, w: &mut dyn Write, line: &[u8], delim: u8) -> io::Result<()> {
        if self.len + line.len() + 1 > self.buf.len() {
            self.flush(w)?;
            if line.len() + 1 > self.buf.len() {
                w.write_all(line)?;
                return w.write_all(&[delim]);
            }
        }
        copy_words(&mut self.buf[self.len..self.len + line.len()], line);
        self.len += line.len();
        self.buf[self.len] = delim;
        self.len += 1;
        Ok(())
    }

    pub fn flush(&mut self, w: &mut dyn Write) -> io::Result<()> {
        if self.len > 0 {
            w.write_all(&self.buf[..self.len])?;
            self.len = 0;
        }
        Ok(())
    }
}

/// `dst.copy_from_slice(src)` for short slices without a call to the C
/// library's memcpy, whose per-call cost dominates for typical lines:
/// fixed 8-byte copies compile to single 64-bit loads and stores.
fn copy_words(dst: &mut [u8], src: &[u8]) {
    let mut d = dst.chunks_exact_mut(8);
    let mut s = src.chunks_exact(8);
    for (d8, s8) in (&mut d).zip(&mut s) {
        let word: [u8; 8] = s8.try_into().unwrap();
        d8.copy_from_slice(&word);
    }
    for (d1, s1) in d.into_remainder().iter_mut().zip(s.remainder()) {
        *d1 = *s1;
    }
}

#[cfg(test)]
mod tests {
    use super::Staged;

    #[test]
    fn lines_of_every_length_and_buffer_edges() {
        // Lengths around the 8-byte word size and the 64 KiB buffer.
        let lens = [0usize, 1, 7, 8, 9, 15, 16, 17, 100, 65534, 65535, 65536, 65537, 200_000, 3, 0];
        let mut want = Vec::new();
        let mut out = Vec::new();
        let mut st = Staged::new();
        for (k, &n) in lens.iter().enumerate() {
            let line: Vec<u8> = (0..n).map(|i| (i * 7 + k) as u8).collect();
            st.line(&mut out, &line, b'\n').unwrap();
            want.extend_from_slice(&line);
            want.push(b'\n');
        }
        st.flush(&mut out).unwrap();
        assert!(out == want);
    }
}
