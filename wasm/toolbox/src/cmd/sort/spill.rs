//! Inputs larger than the sort buffer, as GNU sort handles them: each
//! buffer's worth of lines is sorted and written to a temporary file (a
//! "run") in the temporary directory, and the runs are merged at the end,
//! at most `MAX_MERGE` at a time, so memory stays near the buffer size
//! whatever the input's size.

use super::keyed;
use super::staged::Staged;
use super::Sorter;
use crate::fsx;
use crate::input;
use crate::rand::Rng;
use std::cmp::Ordering;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Write};

/// Memory a buffered line costs beyond its bytes while a chunk is sorted:
/// its range (8 bytes on wasm32), its item and the radix sort's copy of it
/// (16 each) and its key range (8).
pub const LINE_COST: usize = 48;
/// Default sort buffer: bytes plus `LINE_COST` per line. Programs get a
/// 64 MiB memory cap; a full buffer peaks near 1.5 times this.
pub const DEFAULT_BUFFER: usize = 24 << 20;
/// Runs merged at once (GNU's NMERGE is 16); each holds a 64 KiB read
/// buffer. 200 MB of short lines makes about 40 runs: one pass, not two.
const MAX_MERGE: usize = 64;

/// The sort buffer size `-S SIZE` asks for: a number with an optional
/// suffix b (bytes), K, M, G, T (powers of 1024; K when none is given) or %
/// (of the 64 MiB a program may use). None when SIZE is not one.
pub fn buffer_size(spec: &str) -> Option<usize> {
    let s = spec.trim();
    let (num, suffix) = match s.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let n: u64 = num.parse().ok()?;
    let bytes = match suffix {
        "b" => n,
        "" | "K" | "k" => n.checked_mul(1 << 10)?,
        "M" | "m" => n.checked_mul(1 << 20)?,
        "G" | "g" => n.checked_mul(1 << 30)?,
        "T" | "t" => n.checked_mul(1 << 40)?,
        "%" if n <= 100 => (64u64 << 20) * n / 100,
        _ => return None,
    };
    // A buffer must hold at least a line or two; GNU also rounds tiny sizes up.
    Some(bytes.clamp(1 << 10, 1 << 31) as usize)
}

/// The sorted runs written so far; their files are removed when this is dropped.
pub struct Runs {
    dir: String,
    paths: Vec<String>,
    rng: Rng,
}

/// What failed while spilling: a temporary file could not be written (the
/// message names the directory, as GNU's does) or the output failed.
pub enum SpillError {
    Temp(String, io::Error),
    Out(io::Error),
}

impl Runs {
    pub fn new(dir: String) -> Self {
        Runs { dir, paths: Vec::new(), rng: Rng::new() }
    }

    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// A new, exclusively created temporary file.
    fn create(&mut self) -> Result<(String, File), SpillError> {
        let mut last = None;
        for _ in 0..100 {
            let path = fsx::join(&self.dir, &format!("sort{:012x}", self.rng.next() & 0xffff_ffff_ffff));
            match OpenOptions::new().write(true).create_new(true).open(fsx::host(&path)) {
                Ok(f) => return Ok((path, f)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(SpillError::Temp(self.dir.clone(), e)),
            }
        }
        Err(SpillError::Temp(self.dir.clone(), last.unwrap_or_else(|| io::Error::new(io::ErrorKind::Other, "no free name"))))
    }

    /// Sorts `lines` (ranges into `data`) and writes them as one more run.
    pub fn spill(&mut self, sorter: &Sorter, data: &[u8], lines: &[(usize, usize)], unique: bool, delim: u8) -> Result<(), SpillError> {
        let (path, file) = self.create()?;
        self.paths.push(path);
        let dir = self.dir.clone();
        let temp = |e: io::Error| SpillError::Temp(dir.clone(), e);
        let mut w = BufWriter::with_capacity(input::BUF, file);
        let mut engine = keyed::Sorted::new(sorter, data, lines);
        engine.sort();
        let mut prev: Option<&keyed::Item> = None;
        for item in &engine.items {
            if unique && prev.map_or(false, |p| engine.same_keys(p, item)) {
                continue;
            }
            let (s, e) = lines[item.line as usize];
            w.write_all(&data[s..e]).map_err(temp)?;
            w.write_all(&[delim]).map_err(temp)?;
            prev = Some(item);
        }
        w.flush().map_err(temp)?;
        // Closing commits the file; a failure to do so is a failed write.
        w.into_inner().map_err(|e| temp(e.into_error()))?.sync_all().map_err(temp)?;
        Ok(())
    }

    /// Merges every run into `out`, first folding them `MAX_MERGE` at a
    /// time into longer runs (in input order, so `-s` stays stable).
    pub fn merge_into(&mut self, sorter: &Sorter, out: &mut dyn Write, unique: bool, delim: u8) -> Result<(), SpillError> {
        while self.paths.len() > MAX_MERGE {
            let mut merged = Vec::new();
            let old = std::mem::take(&mut self.paths);
            for group in old.chunks(MAX_MERGE) {
                let (path, file) = self.create()?;
                merged.push(path);
                let dir = self.dir.clone();
                let mut w = BufWriter::with_capacity(input::BUF, file);
                merge(sorter, &dir, group, &mut w, unique, delim).map_err(|e| match e {
                    SpillError::Out(e) => SpillError::Temp(dir.clone(), e),
                    other => other,
                })?;
                w.flush().map_err(|e| SpillError::Temp(dir.clone(), e))?;
                drop(w);
                for p in group {
                    let _ = fs::remove_file(fsx::host(p));
                }
            }
            self.paths = merged;
        }
        merge(sorter, &self.dir, &self.paths, out, unique, delim)
    }
}

impl Drop for Runs {
    fn drop(&mut self) {
        for p in &self.paths {
            let _ = fs::remove_file(fsx::host(p));
        }
    }
}

/// One run being merged: its reader, its current line (without the
/// delimiter) and that line's first-key rank.
struct Head {
    reader: BufReader<File>,
    line: Vec<u8>,
    rank: u64,
}

impl Head {
    /// Reads the next line; false at the run's end.
    fn advance(&mut self, delim: u8, first: Option<&keyed::FirstRank>) -> io::Result<bool> {
        self.line.clear();
        if self.reader.read_until(delim, &mut self.line)? == 0 {
            return Ok(false);
        }
        if self.line.last() == Some(&delim) {
            self.line.pop();
        }
        if let Some(f) = first {
            self.rank = f.rank(&self.line);
        }
        Ok(true)
    }
}

/// k-way merge of sorted run files through a binary heap of run indices;
/// equal lines come out in run order, which is input order.
fn merge(sorter: &Sorter, dir: &str, paths: &[String], out: &mut dyn Write, unique: bool, delim: u8) -> Result<(), SpillError> {
    let temp_dir = |_: &str| dir.to_string();
    // Each line's first-key rank is taken once, when it is read, instead of
    // finding and parsing its key again in every comparison.
    let first = keyed::FirstRank::new(sorter);
    let mut heads = Vec::with_capacity(paths.len());
    for p in paths {
        let f = File::open(fsx::host(p)).map_err(|e| SpillError::Temp(temp_dir(p), e))?;
        let mut h = Head { reader: BufReader::with_capacity(input::BUF, f), line: Vec::new(), rank: 0 };
        if h.advance(delim, first.as_ref()).map_err(|e| SpillError::Temp(temp_dir(p), e))? {
            heads.push(Some(h));
        } else {
            heads.push(None);
        }
    }
    let less = |heads: &[Option<Head>], a: usize, b: usize| -> bool {
        let (x, y) = (heads[a].as_ref().unwrap(), heads[b].as_ref().unwrap());
        if let Some(f) = &first {
            if x.rank != y.rank {
                return (x.rank < y.rank) != f.reverse;
            }
        }
        match sorter.cmp(&x.line, &y.line) {
            Ordering::Less => true,
            Ordering::Greater => false,
            Ordering::Equal => a < b,
        }
    };
    let mut heap: Vec<usize> = (0..heads.len()).filter(|&i| heads[i].is_some()).collect();
    for i in (0..heap.len() / 2).rev() {
        sift_down(&mut heap, i, |a, b| less(&heads, a, b));
    }
    let mut staged = Staged::new();
    let mut prev: Option<Vec<u8>> = None;
    while let Some(&top) = heap.first() {
        let line = &heads[top].as_ref().unwrap().line;
        let dup = unique && prev.as_ref().map_or(false, |p| sorter.keys_cmp(p, line) == Ordering::Equal);
        if !dup {
            staged.line(out, line, delim).map_err(SpillError::Out)?;
            if unique {
                let p = prev.get_or_insert_with(Vec::new);
                p.clear();
                p.extend_from_slice(line);
            }
        }
        let more = heads[top].as_mut().unwrap().advance(delim, first.as_ref()).map_err(|e| SpillError::Temp(temp_dir(&paths[top]), e))?;
        if !more {
            heads[top] = None;
            let last = heap.pop().unwrap();
            if heap.is_empty() {
                break;
            }
            heap[0] = last;
        }
        sift_down(&mut heap, 0, |a, b| less(&heads, a, b));
    }
    staged.flush(out).map_err(SpillError::Out)
}

fn sift_down(heap: &mut [usize], mut i: usize, less: impl Fn(usize, usize) -> bool) {
    loop {
        let (l, r) = (2 * i + 1, 2 * i + 2);
        let mut m = i;
        if l < heap.len() && less(heap[l], heap[m]) {
            m = l;
        }
        if r < heap.len() && less(heap[r], heap[m]) {
            m = r;
        }
        if m == i {
            return;
        }
        heap.swap(i, m);
        i = m;
    }
}
