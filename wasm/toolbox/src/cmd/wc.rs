//! wc [-clmwL] [FILE]...
//!
//! Column width follows GNU: wide enough for the total size of the regular
//! files named, at least 7 when any input is not a regular file, and no
//! padding at all for a single count of a single input.

use crate::args::{flag, val, Spec};
use crate::bytescan::{eq_lanes, load, splat};
use crate::ctx::{Ctx, Res};
use crate::{fsx, input};
use std::fs::File;
use std::io::{self, BufRead, Read, Write};

const SPECS: &[Spec] = &[
    flag('c', "bytes", "c"),
    flag('m', "chars", "m"),
    flag('l', "lines", "l"),
    flag('w', "words", "w"),
    flag('L', "max-line-length", "L"),
    val('\0', "files0-from", "files0-from"),
];
const HELP: &str = "Usage: wc [OPTION]... [FILE]...\nPrint newline, word, and byte counts for each FILE, and a total line if\nmore than one FILE is specified.  A word is a non-zero-length sequence of\nprintable characters delimited by white space.\n\nWith no FILE, or when FILE is -, read standard input.\n\n  -c, --bytes            print the byte counts\n  -m, --chars            print the character counts\n  -l, --lines            print the newline counts\n  -w, --words            print the word counts\n  -L, --max-line-length  print the maximum display width\n      --files0-from=F    read input from the files specified by\n                           NUL-terminated names in file F;\n                           If F is - then read names from standard input\n";

#[derive(Default, Clone, Copy)]
struct Counts {
    lines: u64,
    words: u64,
    chars: u64,
    bytes: u64,
    maxlen: u64,
}

/// Read size for the counting fast paths: large reads go straight from the
/// file into this buffer (BufReader bypasses its own 64 KiB buffer then),
/// so a 10 MB file costs ~40 host calls.
const BLOCK: usize = 256 * 1024;

/// An opened operand. Named files stay `File`s so `-c` can ask their size.
enum Source<'b> {
    Stream(Box<dyn BufRead + 'b>),
    File(File),
}

/// Opens like `input::open` (same errors, directories refused up front).
fn open<'b>(stdin: &'b mut dyn BufRead, name: &str) -> io::Result<Source<'b>> {
    if name == "-" {
        return Ok(Source::Stream(input::open(stdin, name)?));
    }
    let f = File::open(fsx::host(name))?;
    if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(input::is_a_directory());
    }
    Ok(Source::File(f))
}

/// The NUL-separated file names of --files0-from (`-` reads them from stdin).
fn names_from(stdin: &mut dyn BufRead, list: &str) -> io::Result<Vec<String>> {
    let mut r = input::open(stdin, list)?;
    let mut raw = Vec::new();
    r.read_to_end(&mut raw)?;
    Ok(raw.split(|b| *b == 0).filter(|n| !n.is_empty()).map(|n| String::from_utf8_lossy(n).into_owned()).collect())
}

/// Counts `src`, doing only the work the selected columns need.
/// `buf` is the read buffer for the fast paths, shared by all operands.
fn count_source(src: Source, sel: [bool; 5], buf: &mut Vec<u8>) -> io::Result<Counts> {
    let [_, words, chars, bytes, maxlen] = sel;
    let lines_or_words = sel[0] || words;
    if let Source::File(f) = &src {
        // Like GNU, -c alone takes a regular file's size from fstat. A size
        // that is a multiple of the page size may be a /proc-style guess,
        // so those files are read (GNU reads their tail).
        if bytes && !lines_or_words && !chars && !maxlen {
            if let Ok(md) = f.metadata() {
                if md.is_file() && md.len() % 4096 != 0 {
                    return Ok(Counts { bytes: md.len(), ..Counts::default() });
                }
            }
        }
    }
    if chars || maxlen {
        return match src {
            Source::Stream(mut r) => count(&mut *r, chars),
            Source::File(f) => count(&mut io::BufReader::with_capacity(input::BUF, f), chars),
        };
    }
    match src {
        Source::Stream(mut r) => count_fast(&mut *r, words, buf),
        Source::File(mut f) => count_fast(&mut f, words, buf),
    }
}

/// Lines, bytes and (when `want_words`) words, 8 bytes at a time. A word
/// is a run of bytes other than the six ASCII spaces, as in `count`.
fn count_fast<R: Read + ?Sized>(r: &mut R, want_words: bool, buf: &mut Vec<u8>) -> io::Result<Counts> {
    let mut c = Counts::default();
    if buf.len() < BLOCK {
        buf.resize(BLOCK, 0);
    }
    let mut words = WordScan { prev_space: true, words: 0 };
    loop {
        let n = match r.read(buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let block = &buf[..n];
        c.bytes += n as u64;
        if want_words {
            c.lines += words.scan(block);
        } else {
            c.lines += crate::bytescan::count_byte(block, b'\n') as u64;
        }
    }
    c.words = words.words;
    Ok(c)
}

/// Word counting across blocks: a word starts at a non-space byte whose
/// predecessor is a space (or the start of the input).
struct WordScan {
    prev_space: bool,
    words: u64,
}

fn is_space(b: u8) -> bool {
    b == b' ' || (0x09..=0x0d).contains(&b)
}

impl WordScan {
    /// Adds the words starting in `block`; returns its newline count.
    fn scan(&mut self, block: &[u8]) -> u64 {
        const LO7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        const HI: u64 = 0x8080_8080_8080_8080;
        let (nl, blank) = (splat(b'\n'), splat(b' '));
        // Lanes 0x09..=0x0d (\t \n \v \f \r): low seven bits + (0x80 - k)
        // sets bit 7 iff they are >= k, and a lane with bit 7 set is >= 0x80.
        let (ge9, ge14) = (splat(0x80 - 9), splat(0x80 - 14));
        let mut lines = 0u64;
        let mut words = 0u64;
        // Bit 7 of lane 0 set when the byte before this word is a space.
        let mut carry: u64 = if self.prev_space { 0x80 } else { 0 };
        let mut chunks = block.chunks_exact(8);
        for ch in &mut chunks {
            let x = load(ch);
            let lo = x & LO7;
            let ctrl = (lo.wrapping_add(ge9) & !lo.wrapping_add(ge14) & !x) & HI;
            let space = ctrl | eq_lanes(x, blank);
            let starts = !space & HI & ((space << 8) | carry);
            words += starts.count_ones() as u64;
            lines += eq_lanes(x, nl).count_ones() as u64;
            carry = (space >> 56) & 0x80;
        }
        let mut prev_space = carry != 0;
        for &b in chunks.remainder() {
            let sp = is_space(b);
            if !sp && prev_space {
                words += 1;
            }
            if b == b'\n' {
                lines += 1;
            }
            prev_space = sp;
        }
        self.prev_space = prev_space;
        self.words += words;
        lines
    }
}

/// The general per-byte counter, needed for -m and -L.
fn count(r: &mut dyn BufRead, need_chars: bool) -> io::Result<Counts> {
    let mut c = Counts::default();
    let mut in_word = false;
    let mut col = 0u64;
    loop {
        let n = {
            let buf = r.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            for &b in buf {
                // UTF-8 continuation bytes do not start a character.
                if need_chars && (b & 0xC0) != 0x80 {
                    c.chars += 1;
                }
                match b {
                    b'\n' => {
                        c.lines += 1;
                        c.maxlen = c.maxlen.max(col);
                        col = 0;
                        in_word = false;
                    }
                    b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                        if b == b'\t' {
                            col = (col / 8 + 1) * 8;
                        } else if b == b' ' {
                            col += 1;
                        } else if b == b'\r' || b == 0x0c {
                            c.maxlen = c.maxlen.max(col);
                            col = 0;
                        }
                        in_word = false;
                    }
                    _ => {
                        if (b & 0xC0) != 0x80 && (b >= 0x20 || b >= 0x80) && b != 0x7f {
                            col += 1;
                        }
                        if !in_word {
                            c.words += 1;
                            in_word = true;
                        }
                    }
                }
            }
            c.bytes += buf.len() as u64;
            buf.len()
        };
        r.consume(n);
    }
    c.maxlen = c.maxlen.max(col);
    Ok(c)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let (mut l, mut w, m, mut c, big_l) = (p.has("l"), p.has("w"), p.has("m"), p.has("c"), p.has("L"));
    if !(l || w || m || c || big_l) {
        l = true;
        w = true;
        c = true;
    }
    let files = match p.last("files0-from") {
        None => input::or_stdin(&p.operands),
        Some(_) if !p.operands.is_empty() => {
            ctx.diag.warn(format!("extra operand '{}'\nfile operands cannot be combined with --files0-from\nTry 'wc --help' for more information.", p.operands[0]));
            return Ok(1);
        }
        Some(list) => match names_from(ctx.stdin, list) {
            Ok(names) => names,
            Err(e) => {
                ctx.diag.warn(format!("cannot open '{}' for reading: {}", list, crate::ctx::reason(&e)));
                return Ok(1);
            }
        },
    };
    let selected = [l, w, m, c, big_l].iter().filter(|x| **x).count();
    let width = if files.len() == 1 && selected == 1 {
        1
    } else {
        let mut total = 0u64;
        let mut min = 1;
        for f in &files {
            if f == "-" {
                match input::stdin_file_size() {
                    Some(n) => total += n,
                    None => min = 7,
                }
            } else if let Ok(md) = fsx::metadata(f) {
                if md.is_file() {
                    total += md.len();
                } else {
                    min = 7;
                }
            }
        }
        total.to_string().len().max(min)
    };
    let mut tot = Counts::default();
    let mut buf = Vec::new();
    for name in &files {
        let src = match open(ctx.stdin, name) {
            Ok(r) => r,
            Err(e) => {
                ctx.diag.file_err(ctx.out.failed, name, e)?;
                continue;
            }
        };
        let cnt = match count_source(src, [l, w, m, c, big_l], &mut buf) {
            Ok(c) => c,
            Err(e) => {
                ctx.diag.file_err(ctx.out.failed, name, e)?;
                continue;
            }
        };
        tot.lines += cnt.lines;
        tot.words += cnt.words;
        tot.chars += cnt.chars;
        tot.bytes += cnt.bytes;
        tot.maxlen = tot.maxlen.max(cnt.maxlen);
        let label = if name == "-" && p.operands.is_empty() { None } else { Some(name.as_str()) };
        line(&mut ctx.out, &cnt, [l, w, m, c, big_l], width, label)?;
    }
    if files.len() > 1 {
        line(&mut ctx.out, &tot, [l, w, m, c, big_l], width, Some("total"))?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

fn line(out: &mut dyn Write, c: &Counts, sel: [bool; 5], width: usize, label: Option<&str>) -> io::Result<()> {
    let vals = [c.lines, c.words, c.chars, c.bytes, c.maxlen];
    let mut s = String::new();
    for (i, v) in vals.iter().enumerate() {
        if sel[i] {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(&format!("{:>w$}", v, w = width));
        }
    }
    if let Some(l) = label {
        s.push(' ');
        s.push_str(l);
    }
    s.push('\n');
    out.write_all(s.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::{count, count_fast};
    use crate::testutil::{check, tmpdir, write, Pieces};


    #[test]
    fn fast_counts_agree_with_state_machine() {
        let mut long = Vec::new();
        for i in 0..200_000u32 {
            long.push(match i % 11 {
                0 => b'\n',
                1 => b' ',
                2 => b'\t',
                3 => 0,
                4 => 0xc3,
                5 => 0x0b,
                6 if i % 3 == 0 => b'\r',
                _ => b'a' + (i % 7) as u8,
            });
        }
        let long_line = vec![b'x'; 70_000];
        let inputs: Vec<&[u8]> = vec![
            b"",
            b"\n",
            b"no newline",
            b"a b\r\nc d\r\n",
            b"  lead and trail  ",
            b"nul\0inside\0 x\n",
            b"\x0b\x0c\r\t \n",
            b"w\xe9\xff\x80 \x85x\n",
            b"12345678 1234567 123456789\n",
            &long,
            &long_line,
        ];
        for data in inputs {
            let want = count(&mut &data[..], false).unwrap();
            for sizes in [&[1usize][..], &[7, 9, 64 * 1024], &[65_536], &[3, 65_533, 8], &[usize::MAX]] {
                let got = count_fast(&mut Pieces::new(data, sizes), true, &mut Vec::new()).unwrap();
                assert_eq!((got.lines, got.words, got.bytes), (want.lines, want.words, want.bytes), "{} bytes in {:?}", data.len(), sizes);
                let got = count_fast(&mut Pieces::new(data, sizes), false, &mut Vec::new()).unwrap();
                assert_eq!((got.lines, got.bytes), (want.lines, want.bytes));
            }
        }
    }

    #[test]
    fn bytes_from_size() {
        let d = tmpdir();
        let (odd, page, empty) = (format!("{}/odd", d), format!("{}/page", d), format!("{}/empty", d));
        write(&odd, "abc\n");
        write(&page, &"x".repeat(8192));
        write(&empty, "");
        check("wc", &["-c", &odd], "", &format!("4 {}\n", odd), 0);
        check("wc", &["-c", &page], "", &format!("8192 {}\n", page), 0);
        check("wc", &["-c", &empty], "", &format!("0 {}\n", empty), 0);
        check("wc", &["-c", &odd, &page], "", &format!("   4 {}\n8192 {}\n8196 total\n", odd, page), 0);
        check("wc", &["-lc", &odd], "", &format!("1 4 {}\n", odd), 0);
        check("wc", &["-c", &d], "", "", 1);
        check("wc", &["-c"], "abc", "3\n", 0);
    }

    #[test]
    fn stdin_table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&[], "hello world\nfoo\n", "      2       3      16\n"),
            (&["-l"], "a\nb\n", "2\n"),
            (&["-w"], "  a b\tc\n", "3\n"),
            (&["-c"], "h\u{e9}\n", "4\n"),
            (&["-m"], "h\u{e9}\n", "3\n"),
            (&["-L"], "ab\nabcd\n", "4\n"),
            (&["-L"], "\tx\n", "9\n"),
            (&["-lw"], "a b\n", "      1       2\n"),
            (&["-l"], "no newline", "0\n"),
            (&[], "", "      0       0       0\n"),
        ];
        for (args, input, out) in cases {
            check("wc", args, input, out, 0);
        }
    }

    #[test]
    fn files() {
        let d = tmpdir();
        let (a, b) = (format!("{}/a", d), format!("{}/b", d));
        write(&a, "one two\nthree\n");
        write(&b, "x\n");
        check("wc", &[&a], "", &format!(" 2  3 14 {}\n", a), 0);
        check("wc", &["-l", &a], "", &format!("2 {}\n", a), 0);
        check("wc", &["-l", &a, &b], "", &format!(" 2 {}\n 1 {}\n 3 total\n", a, b), 0);
        let m = format!("{}/missing", d);
        check("wc", &["-l", &a, &m], "", &format!(" 2 {}\n 2 total\n", a), 1);
    }
}
