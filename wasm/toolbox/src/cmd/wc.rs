//! wc [-clmwL] [FILE]...
//!
//! Column width follows GNU: wide enough for the total size of the regular
//! files named, at least 7 when any input is not a regular file, and no
//! padding at all for a single count of a single input.

use crate::args::{flag, Spec};
use crate::ctx::{Ctx, Res};
use crate::{fsx, input};
use std::io::{self, BufRead, Write};

const SPECS: &[Spec] = &[
    flag('c', "bytes", "c"),
    flag('m', "chars", "m"),
    flag('l', "lines", "l"),
    flag('w', "words", "w"),
    flag('L', "max-line-length", "L"),
];
const HELP: &str = "Usage: wc [OPTION]... [FILE]...\nPrint newline, word, and byte counts for each FILE, and a total line if\nmore than one FILE is specified.  A word is a non-zero-length sequence of\nprintable characters delimited by white space.\n\nWith no FILE, or when FILE is -, read standard input.\n\n  -c, --bytes            print the byte counts\n  -m, --chars            print the character counts\n  -l, --lines            print the newline counts\n  -w, --words            print the word counts\n  -L, --max-line-length  print the maximum display width\n";

#[derive(Default, Clone, Copy)]
struct Counts {
    lines: u64,
    words: u64,
    chars: u64,
    bytes: u64,
    maxlen: u64,
}

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
    let files = input::or_stdin(&p.operands);
    let selected = [l, w, m, c, big_l].iter().filter(|x| **x).count();
    let width = if files.len() == 1 && selected == 1 {
        1
    } else {
        let mut total = 0u64;
        let mut min = 1;
        for f in &files {
            if f == "-" {
                min = 7;
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
    for name in &files {
        let mut r = match input::open(ctx.stdin, name) {
            Ok(r) => r,
            Err(e) => {
                ctx.diag.file_err(ctx.out.failed, name, e)?;
                continue;
            }
        };
        let cnt = match count(&mut r, m) {
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
    use crate::testutil::{check, tmpdir, write};

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
