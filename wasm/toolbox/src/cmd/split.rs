//! split [-l N | -b SIZE | -n CHUNKS] [-d] [-a LEN] [--additional-suffix=S]
//! [FILE [PREFIX]] — writes PREFIXaa, PREFIXab, ... (or 00, 01 with -d).

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Out, Res};
use crate::{fsx, input};
use std::fs::File;
use std::io::{self, BufRead, BufWriter, Read, Write};

const SPECS: &[Spec] = &[
    val('l', "lines", "l"),
    val('b', "bytes", "b"),
    val('C', "line-bytes", "C"),
    val('n', "number", "n"),
    val('t', "separator", "t"),
    flag('d', "", "d"),
    optval('\0', "numeric-suffixes", "d"),
    flag('x', "", "x"),
    optval('\0', "hex-suffixes", "x"),
    val('a', "suffix-length", "a"),
    val('\0', "additional-suffix", "add"),
    flag('\0', "verbose", "v"),
    flag('e', "elide-empty-files", "e"),
    // Pieces are files written through a buffer; -u only matters to --filter's commands, refused here.
    flag('u', "unbuffered", "-"),
    val('\0', "filter", "filter"),
];
const HELP: &str = "Usage: split [OPTION]... [FILE [PREFIX]]\nOutput pieces of FILE to PREFIXaa, PREFIXab, ...;\ndefault size is 1000 lines, and default PREFIX is 'x'.\n\n  -a, --suffix-length=N   generate suffixes of length N (default 2)\n      --additional-suffix=SUFFIX  append an additional SUFFIX to file names\n  -b, --bytes=SIZE        put SIZE bytes per output file\n  -C, --line-bytes=SIZE   put at most SIZE bytes of records per output file\n  -d                      use numeric suffixes starting at 0, not alphabetic\n      --numeric-suffixes[=FROM]  same as -d, but allow setting the start value\n  -x                      use hex suffixes starting at 0, not alphabetic\n      --hex-suffixes[=FROM]  same as -x, but allow setting the start value\n  -e, --elide-empty-files  do not generate empty output files with '-n'\n  -l, --lines=NUMBER      put NUMBER lines/records per output file\n  -n, --number=CHUNKS     generate CHUNKS output files: N, K/N, l/N, l/K/N, r/N, r/K/N\n  -t, --separator=SEP     use SEP instead of newline as the record separator\n  -u, --unbuffered        accepted (it only matters with --filter)\n      --verbose           print a diagnostic just before each output file is opened\n\n--filter is not supported here (no commands can run).\n";

/// `-n` CHUNKS: N, K/N, l/N, l/K/N, r/N, r/K/N (K: print only chunk K to stdout).
struct Chunks {
    kind: u8,
    k: Option<usize>,
    n: usize,
}

fn parse_chunks(v: &str) -> Option<Chunks> {
    let (kind, rest) = match v.split_once('/') {
        Some(("l", r)) => (b'l', r),
        Some(("r", r)) => (b'r', r),
        _ => (b'b', v),
    };
    let nums: Vec<usize> = rest.split('/').map(|x| x.parse().ok()).collect::<Option<_>>()?;
    let (k, n) = match nums[..] {
        [n] => (None, n),
        [k, n] if k >= 1 && k <= n => (Some(k), n),
        _ => return None,
    };
    (n > 0).then_some(Chunks { kind, k, n })
}

/// Calls `f` with each block of `r` (64 KiB from a file); `f` returns how much of it it used.
fn blocks(r: &mut dyn BufRead, name: &str, mut f: impl FnMut(&[u8]) -> io::Result<usize>) -> io::Result<()> {
    loop {
        let buf = r.fill_buf().map_err(|e| fail(format!("{}: {}", q(name), reason(&e))))?;
        if buf.is_empty() {
            return Ok(());
        }
        let used = f(buf)?;
        r.consume(used);
    }
}

/// An error whose text is the whole message split prints.
fn fail(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::Other, msg)
}

/// `n` as a usize, saturating (sizes are u64; a piece never holds more than memory anyway).
fn us(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// -b and -l: pieces of `limit` bytes, or of `limit` records ending in `sep`; the last one gets the rest.
fn fixed(r: &mut dyn BufRead, name: &str, out: &mut Pieces, limit: u64, sep: Option<u8>) -> io::Result<()> {
    let mut used = 0;
    blocks(r, name, |buf| {
        let take = match sep {
            None => buf.len().min(us(limit - used)),
            Some(s) => {
                // Up to the record end that fills the piece, or the whole block.
                let mut take = buf.len();
                for i in (0..buf.len()).filter(|&i| buf[i] == s) {
                    used += 1;
                    if used == limit {
                        take = i + 1;
                        break;
                    }
                }
                take
            }
        };
        out.write(&buf[..take])?;
        if sep.is_none() {
            used += take as u64;
        }
        if used == limit {
            out.end()?;
            used = 0;
        }
        Ok(take)
    })?;
    out.end()
}

/// -C: as many whole records as fit in `max` bytes; a longer record is cut into `max`-byte pieces.
/// Only a record that may not fit beside what the piece holds is held back (at most `max` bytes):
/// once it starts a piece of its own, it streams.
fn line_bytes(r: &mut dyn BufRead, name: &str, out: &mut Pieces, max: u64, sep: u8) -> io::Result<()> {
    let (mut used, mut hold, mut placed) = (0u64, Vec::new(), false);
    blocks(r, name, |buf| {
        let (take, ends) = buf.iter().position(|&c| c == sep).map_or((buf.len(), false), |i| (i + 1, true));
        hold.extend_from_slice(&buf[..take]);
        if !placed && used > 0 && used + hold.len() as u64 > max {
            out.end()?;
            used = 0;
        }
        // The record starts this piece, or ends within it: its bytes go now, cut at `max`.
        if placed || used == 0 || ends {
            let mut rest = &hold[..];
            while !rest.is_empty() {
                if used == max {
                    out.end()?;
                    used = 0;
                }
                let n = rest.len().min(us(max - used));
                out.write(&rest[..n])?;
                used += n as u64;
                rest = &rest[n..];
            }
            hold.clear();
            placed = !ends;
        }
        Ok(take)
    })?;
    // A last record without its separator that fits beside the piece's others.
    if !hold.is_empty() {
        out.write(&hold)?;
    }
    out.end()
}

/// -n N and -n l/N over an input of `len` bytes: chunk k (from 0) ends at byte (k+1)*size, or
/// (l/N) with the record holding byte (k+1)*size-1, so a chunk whose bytes an earlier record took
/// is empty; the last chunk takes the rest. `put(k, bytes)` gets each chunk's bytes, starting
/// with `put(k, &[])` for every chunk, empty ones included.
fn chunked(r: &mut dyn BufRead, name: &str, c: &Chunks, len: u64, sep: u8, mut put: impl FnMut(usize, &[u8]) -> io::Result<()>) -> io::Result<()> {
    let (n, size) = (c.n, (len / c.n as u64).max(1));
    let (mut k, mut pos) = (0, 0u64);
    put(0, &[])?;
    blocks(r, name, |buf| {
        let end = (k as u64 + 1) * size;
        let (take, done) = if k + 1 == n {
            (buf.len(), false)
        } else if c.kind == b'b' {
            let take = buf.len().min(us(end - pos));
            (take, pos + take as u64 == end)
        } else if pos + 1 < end {
            (buf.len().min(us(end - 1 - pos)), false)
        } else {
            buf.iter().position(|&b| b == sep).map_or((buf.len(), false), |i| (i + 1, true))
        };
        put(k, &buf[..take])?;
        pos += take as u64;
        if done {
            k += 1;
            put(k, &[])?;
            while c.kind == b'l' && k + 1 < n && pos >= (k as u64 + 1) * size {
                k += 1;
                put(k, &[])?;
            }
        }
        Ok(take)
    })?;
    (k + 1..n).try_for_each(|j| put(j, &[]))
}

/// -n r/N: record i goes to chunk i mod N, through `put(chunk, bytes)`.
fn round_robin(r: &mut dyn BufRead, name: &str, n: usize, sep: u8, mut put: impl FnMut(usize, &[u8]) -> io::Result<()>) -> io::Result<()> {
    let mut i = 0;
    blocks(r, name, |buf| {
        let (take, ends) = buf.iter().position(|&c| c == sep).map_or((buf.len(), false), |j| (j + 1, true));
        put(i, &buf[..take])?;
        if ends {
            i = (i + 1) % n;
        }
        Ok(take)
    })
}

/// One output file, buffered; its errors name it.
struct Piece {
    name: String,
    w: BufWriter<File>,
}

impl Piece {
    fn put(&mut self, b: &[u8]) -> io::Result<()> {
        self.w.write_all(b).map_err(|e| fail(format!("{}: {}", self.name, reason(&e))))
    }
    fn close(mut self) -> io::Result<()> {
        self.w.flush().map_err(|e| fail(format!("{}: {}", self.name, reason(&e))))
    }
}

/// The output files PREFIX+suffix+additional suffix, created in order as the input streams by.
struct Pieces<'o, 'w> {
    prefix: String,
    add: String,
    digits: &'static [u8],
    len: usize,
    /// The suffix number of the next file.
    next: usize,
    verbose: bool,
    out: &'o mut Out<'w>,
    cur: Option<Piece>,
}

impl Pieces<'_, '_> {
    /// Creates the next file, with a write buffer of `cap` bytes.
    fn create(&mut self, cap: usize) -> io::Result<Piece> {
        let suf = suffix(self.next, self.len, self.digits).ok_or_else(|| fail("output file suffixes exhausted".into()))?;
        self.next += 1;
        let name = format!("{}{}{}", self.prefix, suf, self.add);
        if self.verbose {
            writeln!(self.out, "creating file {}", q(&name))?;
        }
        let f = File::create(fsx::host(&name)).map_err(|e| fail(format!("{}: {}", name, reason(&e))))?;
        Ok(Piece { name, w: BufWriter::with_capacity(cap, f) })
    }
    /// Writes to the current file, creating it first (even for no bytes) when none is open.
    fn write(&mut self, b: &[u8]) -> io::Result<()> {
        if self.cur.is_none() {
            self.cur = Some(self.create(input::BUF)?);
        }
        self.cur.as_mut().map_or(Ok(()), |p| p.put(b))
    }
    /// Closes the current file: the next write starts a new one.
    fn end(&mut self) -> io::Result<()> {
        self.cur.take().map_or(Ok(()), Piece::close)
    }
}

fn suffix(mut n: usize, len: usize, digits: &[u8]) -> Option<String> {
    let base = digits.len();
    let mut s = vec![digits[0]; len];
    for i in (0..len).rev() {
        s[i] = digits[n % base];
        n /= base;
    }
    if n > 0 {
        None
    } else {
        Some(String::from_utf8(s).unwrap())
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.operands.len() > 2 {
        crate::cmd::extra_operand(ctx, &p.operands[2]);
        return Ok(1);
    }
    let modes = ["l", "b", "C", "n"].iter().filter(|k| p.has(k)).count();
    if modes > 1 {
        ctx.diag.usage("cannot split in more than one way");
        return Ok(1);
    }
    let name = p.operands.first().cloned().unwrap_or_else(|| "-".into());
    let prefix = p.operands.get(1).cloned().unwrap_or_else(|| "x".into());
    let suffix_len = match p.last("a").map(|a| a.parse::<usize>()) {
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            ctx.diag.error(format!("invalid suffix length: {}", lq(p.last("a").unwrap())));
            return Ok(1);
        }
        None => 2,
    };
    if p.has("filter") {
        ctx.diag.error("--filter is not supported here (no commands can run in this sandbox); split to files and read them instead");
        return Ok(1);
    }
    let digits: &[u8] = match p.opts.iter().rev().find(|o| o.key == "d" || o.key == "x").map(|o| o.key) {
        Some("d") => b"0123456789",
        Some("x") => b"0123456789abcdef",
        _ => b"abcdefghijklmnopqrstuvwxyz",
    };
    let from_key = if digits.len() == 10 { "d" } else { "x" };
    let first = match p.last(from_key) {
        None => 0,
        Some(v) => match usize::from_str_radix(v, 10) {
            Ok(n) => n,
            Err(_) => {
                ctx.diag.error(format!("invalid start value for numerical suffix: {}", lq(v)));
                return Ok(1);
            }
        },
    };
    let sep = match p.last("t") {
        None => b'\n',
        Some("\\0") => 0,
        Some(t) if t.len() == 1 => t.as_bytes()[0],
        Some(t) => {
            ctx.diag.error(format!("multi-character separator {}", q(t)));
            return Ok(1);
        }
    };
    let add = p.last("add").unwrap_or("").to_string();
    // Stdin read whole for -n (below); declared first, as the reader may borrow it.
    let mut whole = Vec::new();
    let mut r = match input::open(ctx.stdin, &name) {
        Ok(r) => r,
        Err(e) => {
            ctx.diag.error(format!("cannot open {} for reading: {}", q(&name), reason(&e)));
            return Ok(1);
        }
    };
    let size_of = |k: &str, what: &str| -> Result<Option<u64>, String> {
        match p.last(k) {
            None => Ok(None),
            Some(v) => match crate::num::parse_size(v) {
                Some(n) if n > 0 => Ok(Some(n)),
                _ => Err(format!("invalid number of {}: {}", what, lq(v))),
            },
        }
    };
    let (l, b, cb) = match (size_of("l", "lines"), size_of("b", "bytes"), size_of("C", "bytes")) {
        (Ok(l), Ok(b), Ok(c)) => (l, b, c),
        (Err(m), _, _) | (_, Err(m), _) | (_, _, Err(m)) => {
            ctx.diag.error(m);
            return Ok(1);
        }
    };
    let chunks = match p.last("n") {
        None => None,
        Some(v) => match parse_chunks(v) {
            Some(c) => Some(c),
            None => {
                ctx.diag.error(format!("invalid number of chunks: {}", lq(v)));
                return Ok(1);
            }
        },
    };
    // -n N and l/N cut by the input's size: a regular file's, as GNU reads it with fstat. Stdin
    // (a pipe has no size) is read whole first, so those two forms hold it in memory; all else streams.
    let mut len = 0;
    if matches!(chunks, Some(ref c) if c.kind != b'r') {
        match std::fs::metadata(fsx::host(&name)).ok().filter(|m| m.is_file() && name != "-") {
            Some(m) => len = m.len(),
            None => {
                if let Err(e) = r.read_to_end(&mut whole) {
                    ctx.diag.error(format!("cannot open {} for reading: {}", q(&name), reason(&e)));
                    return Ok(1);
                }
                len = whole.len() as u64;
                r = Box::new(&whole[..]);
            }
        }
    }
    let elide = p.has("e");
    let mut out = Pieces { prefix, add, digits, len: suffix_len, next: first, verbose: p.has("v"), out: &mut ctx.out, cur: None };
    let done = if let Some(b) = b {
        fixed(&mut r, &name, &mut out, b, None)
    } else if let Some(c) = cb {
        line_bytes(&mut r, &name, &mut out, c, sep)
    } else if let Some(c) = chunks {
        match (c.k, c.kind) {
            // K/N: only chunk K, to stdout.
            (Some(k), b'r') => round_robin(&mut r, &name, c.n, sep, |i, b| if i + 1 == k { out.out.write_all(b) } else { Ok(()) }),
            (Some(k), _) => chunked(&mut r, &name, &c, len, sep, |i, b| if i + 1 == k { out.out.write_all(b) } else { Ok(()) }),
            (None, b'r') => {
                // Every chunk's file is open at once: their buffers share a MiB.
                let cap = ((1 << 20) / c.n).clamp(4096, input::BUF);
                let mut files: Vec<Option<Piece>> = (0..c.n).map(|_| None).collect();
                let mut put = |i: usize, b: &[u8]| -> io::Result<()> {
                    if files[i].is_none() {
                        files[i] = Some(out.create(cap)?);
                    }
                    files[i].as_mut().map_or(Ok(()), |f| f.put(b))
                };
                // Chunks no record reached are empty files, unless -e.
                let done = round_robin(&mut r, &name, c.n, sep, &mut put).and_then(|_| if elide { Ok(()) } else { (0..c.n).try_for_each(|i| put(i, &[])) });
                let closed = files.into_iter().flatten().try_for_each(Piece::close);
                done.and(closed)
            }
            (None, _) => {
                let mut at = usize::MAX;
                chunked(&mut r, &name, &c, len, sep, |i, b| {
                    if i != at {
                        out.end()?;
                        at = i;
                        if !elide {
                            out.write(&[])?;
                        }
                    }
                    if b.is_empty() {
                        Ok(())
                    } else {
                        out.write(b)
                    }
                })
                .and_then(|_| out.end())
            }
        }
    } else {
        fixed(&mut r, &name, &mut out, l.unwrap_or(1000), Some(sep))
    };
    match done {
        Ok(()) => Ok(0),
        Err(e) if ctx.out.failed => Err(e),
        Err(e) => {
            ctx.diag.error(e);
            Ok(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, read, run, tmpdir, write};

    #[test]
    fn splits() {
        let d = tmpdir();
        let pre = format!("{}/x", d);
        check("split", &["-l", "2", "-", &pre], "1\n2\n3\n4\n5\n", "", 0);
        assert_eq!((read(&format!("{}aa", pre)), read(&format!("{}ab", pre)), read(&format!("{}ac", pre))), ("1\n2\n".into(), "3\n4\n".into(), "5\n".into()));
        let pre2 = format!("{}/p", d);
        check("split", &["-b", "3", "-d", "-a", "3", "--additional-suffix=.txt", "-", &pre2], "abcdefg", "", 0);
        assert_eq!((read(&format!("{}000.txt", pre2)), read(&format!("{}002.txt", pre2))), ("abc".into(), "g".into()));
        let pre3 = format!("{}/n", d);
        check("split", &["-n", "2", "-", &pre3], "abcde", "", 0);
        assert_eq!((read(&format!("{}aa", pre3)), read(&format!("{}ab", pre3))), ("ab".into(), "cde".into()));
        check("split", &["-l", "0"], "", "", 1);
    }

    /// Records ending in `sep` (the last one may lack it).
    fn records(data: &[u8], sep: u8) -> Vec<&[u8]> {
        data.split_inclusive(|&c| c == sep).collect()
    }

    /// GNU's pieces for each mode, stated over the whole input (as split computed them before it
    /// streamed): the streaming code must give the same bytes whatever the block boundaries.
    fn gnu(data: &[u8], mode: &str, n: usize, sep: u8) -> Vec<Vec<u8>> {
        let len = data.len();
        let size = (len / n.max(1)).max(1);
        match mode {
            "-b" => data.chunks(n).map(<[u8]>::to_vec).collect(),
            "-l" => records(data, sep).chunks(n).map(|g| g.concat()).collect(),
            "-C" => {
                let mut out: Vec<Vec<u8>> = vec![];
                let mut cur = vec![];
                for rec in records(data, sep) {
                    if !cur.is_empty() && cur.len() + rec.len() > n {
                        out.push(std::mem::take(&mut cur));
                    }
                    let mut parts: Vec<&[u8]> = rec.chunks(n).collect();
                    let last = parts.pop().unwrap();
                    out.extend(parts.into_iter().map(<[u8]>::to_vec));
                    cur.extend_from_slice(last);
                }
                out.extend((!cur.is_empty()).then_some(cur));
                out
            }
            "N" => (0..n).map(|k| data[(k * size).min(len)..if k + 1 == n { len } else { ((k + 1) * size).min(len) }].to_vec()).collect(),
            "l/N" => {
                let mut pos = 0;
                (1..=n)
                    .map(|k| {
                        let target = k * size - 1;
                        let end = if k == n || target >= len {
                            len
                        } else if pos > target {
                            pos
                        } else {
                            data[target..].iter().position(|&b| b == sep).map_or(len, |i| target + i + 1)
                        };
                        let piece = data[pos..end].to_vec();
                        pos = end;
                        piece
                    })
                    .collect()
            }
            _ => {
                let mut out = vec![vec![]; n];
                for (i, rec) in records(data, sep).into_iter().enumerate() {
                    out[i % n].extend_from_slice(rec);
                }
                out
            }
        }
    }

    /// An input of several 64 KiB blocks: lines of varied length, some longer than a block, and a
    /// last one without its newline; `;` separates records for -t.
    fn big_input() -> String {
        let mut s = String::new();
        for i in 0..6000u32 {
            let w = (i * 7919 % 97) as usize;
            s.push_str(&format!("{}{}{}\n", i, if i % 13 == 0 { ";" } else { "" }, "x".repeat(w)));
            if i % 2000 == 1999 {
                s.push_str(&"y".repeat(70_000 + i as usize));
                s.push('\n');
            }
        }
        s.push_str(&"z".repeat(100_000));
        s
    }

    #[test]
    fn streams_as_gnu_splits() {
        let d = tmpdir();
        let data = big_input();
        assert!(data.len() > 5 * crate::input::BUF);
        let file = format!("{}/in.txt", d);
        write(&file, &data);
        let bytes = data.as_bytes();
        let table: &[(&[&str], &str, usize, u8)] = &[
            (&["-l", "700"], "-l", 700, b'\n'),
            (&[], "-l", 1000, b'\n'),
            (&["-t", ";", "-l", "40"], "-l", 40, b';'),
            (&["-b", "100000"], "-b", 100_000, 0),
            (&["-b", "64K"], "-b", 65536, 0),
            (&["-b", "1000"], "-b", 1000, 0),
            (&["-C", "50000"], "-C", 50_000, b'\n'),
            (&["-C", "65536"], "-C", 65536, b'\n'),
            (&["-a", "3", "-C", "300"], "-C", 300, b'\n'),
            (&["-t", ";", "-C", "20000"], "-C", 20_000, b';'),
            (&["-n", "7"], "N", 7, b'\n'),
            (&["-n", "l/7"], "l/N", 7, b'\n'),
            (&["-n", "l/40"], "l/N", 40, b'\n'),
            (&["-t", ";", "-n", "l/5"], "l/N", 5, b';'),
            (&["-n", "r/5"], "r/N", 5, b'\n'),
        ];
        for (i, (args, mode, n, sep)) in table.iter().enumerate() {
            let want = gnu(bytes, mode, *n, *sep);
            let dir = format!("{}/{}", d, i);
            std::fs::create_dir(&dir).unwrap();
            // From the file (sized, read in blocks) and from stdin.
            for (input, stdin) in [(file.as_str(), ""), ("-", data.as_str())] {
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir(&dir).unwrap();
                let pre = format!("{}/p", dir);
                let all: Vec<&str> = args.iter().copied().chain([input, pre.as_str()]).collect();
                let (code, _, err) = run("split", &all, stdin);
                assert_eq!((code, err.as_str()), (0, ""), "split {:?}", all);
                let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
                names.sort();
                let got: Vec<Vec<u8>> = names.iter().map(|p| std::fs::read(p).unwrap()).collect();
                assert_eq!(got.len(), want.len(), "split {:?}: number of pieces", all);
                for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!(g == w, "split {:?}: piece {} differs ({} bytes, want {})", all, k, g.len(), w.len());
                }
                // K/N prints chunk K alone.
                if mode.contains('N') {
                    let k = want.len() / 2 + 1;
                    let form = format!("{}{}/{}", mode.strip_suffix('N').unwrap(), k, n);
                    let (code, out, _) = run("split", &["-t", &(*sep as char).to_string(), "-n", &form, input], stdin);
                    assert!(code == 0 && out.as_bytes() == &want[k - 1][..], "split -n {}: chunk {}", form, k);
                }
            }
        }
    }
}
