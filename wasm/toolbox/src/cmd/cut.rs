//! cut -b LIST | -c LIST | -f LIST [-d DELIM] [-s] [--complement]
//!     [--output-delimiter=S] [-z] [FILE]...
//! -c counts bytes, as GNU cut does.

use crate::args::{flag, val, Spec};
use crate::ctx::{q, Ctx, Res};
use crate::input;
use std::io::{self, BufRead, Write};

const SPECS: &[Spec] = &[
    val('b', "bytes", "b"),
    val('c', "characters", "c"),
    val('f', "fields", "f"),
    val('d', "delimiter", "d"),
    flag('s', "only-delimited", "s"),
    flag('n', "", "n"),
    flag('\0', "complement", "complement"),
    val('\0', "output-delimiter", "od"),
    flag('z', "zero-terminated", "z"),
];
const HELP: &str = "Usage: cut OPTION... [FILE]...\nPrint selected parts of lines from each FILE to standard output.\n\nWith no FILE, or when FILE is -, read standard input.\n\n  -b, --bytes=LIST        select only these bytes\n  -c, --characters=LIST   select only these characters\n  -d, --delimiter=DELIM   use DELIM instead of TAB for field delimiter\n  -f, --fields=LIST       select only these fields;  also print any line\n                            that contains no delimiter character, unless\n                            the -s option is specified\n  -n                      (ignored)\n      --complement        complement the set of selected bytes, characters\n                            or fields\n  -s, --only-delimited    do not print lines not containing delimiters\n      --output-delimiter=STRING  use STRING as the output delimiter\n  -z, --zero-terminated   line delimiter is NUL, not newline\n\nEach LIST is made up of one range, or many ranges separated by commas.\nEach range is one of: N, N-, N-M, -M (counted from 1).\n";

/// Sorted, merged 1-based inclusive ranges; usize::MAX means "to the end".
pub fn parse_list(s: &str) -> Result<Vec<(usize, usize)>, String> {
    let mut v = Vec::new();
    for part in s.split(|c| c == ',' || c == ' ') {
        if part.is_empty() {
            return Err("fields and positions are numbered from 1".into());
        }
        let num = |t: &str| -> Result<usize, String> {
            let n: usize = t.parse().map_err(|_| format!("invalid field value {}", q(t)))?;
            if n == 0 {
                return Err("fields and positions are numbered from 1".into());
            }
            Ok(n)
        };
        let (a, b) = match part.split_once('-') {
            None => {
                let n = num(part)?;
                (n, n)
            }
            Some(("", "")) => return Err("invalid range with no endpoint: -".into()),
            Some(("", b)) => (1, num(b)?),
            Some((a, "")) => (num(a)?, usize::MAX),
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if b < a {
                    return Err("invalid decreasing range".into());
                }
                (a, b)
            }
        };
        v.push((a, b));
    }
    v.sort();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (a, b) in v {
        match merged.last_mut() {
            Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    Ok(merged)
}

fn selected(ranges: &[(usize, usize)], i: usize, complement: bool) -> bool {
    ranges.iter().any(|&(a, b)| a <= i && i <= b) != complement
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let modes: Vec<&str> = ["b", "c", "f"].into_iter().filter(|k| p.has(k)).collect();
    if modes.is_empty() {
        ctx.diag.usage("you must specify a list of bytes, characters, or fields");
        return Ok(1);
    }
    if modes.len() > 1 {
        ctx.diag.usage("only one type of list may be specified");
        return Ok(1);
    }
    let fields = modes[0] == "f";
    let ranges = match parse_list(p.last(modes[0]).unwrap_or("")) {
        Ok(r) => r,
        Err(m) => {
            ctx.diag.usage(m);
            return Ok(1);
        }
    };
    let delim = match p.last("d") {
        Some(d) if !fields => {
            let _ = d;
            ctx.diag.usage("an input delimiter may be specified only when operating on fields");
            return Ok(1);
        }
        Some(d) if d.len() == 1 => d.as_bytes()[0],
        Some("") => 0,
        Some(_) => {
            ctx.diag.usage("the delimiter must be a single character");
            return Ok(1);
        }
        None => b'\t',
    };
    if p.has("s") && !fields {
        ctx.diag.usage("suppressing non-delimited lines makes sense\n\tonly when operating on fields");
        return Ok(1);
    }
    let comp = p.has("complement");
    let only = p.has("s");
    let od: Option<Vec<u8>> = p.last("od").map(|s| s.as_bytes().to_vec());
    let eol = if p.has("z") { 0 } else { b'\n' };
    for name in input::or_stdin(&p.operands) {
        let mut r = match input::open(ctx.stdin, &name) {
            Ok(r) => r,
            Err(e) => {
                ctx.diag.file_err(ctx.out.failed, &name, e)?;
                continue;
            }
        };
        let out = &mut ctx.out;
        let res = input::each_record(&mut r as &mut dyn BufRead, eol, |rec| {
            let (line, _) = input::chomp(rec, eol);
            let mut buf = Vec::with_capacity(line.len() + 1);
            if fields {
                if !line.contains(&delim) {
                    if only {
                        return Ok(true);
                    }
                    buf.extend_from_slice(line);
                } else {
                    let sep: &[u8] = od.as_deref().unwrap_or(std::slice::from_ref(&delim));
                    let mut first = true;
                    for (i, f) in line.split(|c| *c == delim).enumerate() {
                        if selected(&ranges, i + 1, comp) {
                            if !first {
                                buf.extend_from_slice(sep);
                            }
                            buf.extend_from_slice(f);
                            first = false;
                        }
                    }
                }
            } else {
                let mut prev_sel = false;
                for (i, &b) in line.iter().enumerate() {
                    let s = selected(&ranges, i + 1, comp);
                    if s {
                        // --output-delimiter goes between separate byte ranges.
                        if let Some(od) = &od {
                            if !prev_sel && !buf.is_empty() {
                                buf.extend_from_slice(od);
                            }
                        }
                        buf.push(b);
                    }
                    prev_sel = s;
                }
            }
            buf.push(eol);
            out.write_all(&buf)?;
            Ok(true)
        });
        if let Err(e) = res {
            ctx.diag.file_err(ctx.out.failed, &name, e)?;
        }
    }
    let _ = io::empty();
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err};

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&["-f", "2"], "a\tb\tc\n", "b\n"),
            (&["-d", ",", "-f", "1,3"], "a,b,c\n", "a,c\n"),
            (&["-d", ",", "-f", "2-"], "a,b,c\n", "b,c\n"),
            (&["-d", ",", "-f", "-2"], "a,b,c\n", "a,b\n"),
            (&["-d", ",", "-f", "2"], "nodelim\n", "nodelim\n"),
            (&["-s", "-d", ",", "-f", "2"], "nodelim\nx,y\n", "y\n"),
            (&["-d", ",", "-f", "2", "--complement"], "a,b,c\n", "a,c\n"),
            (&["-d", ",", "-f", "1,2", "--output-delimiter=:"], "a,b,c\n", "a:b\n"),
            (&["-c", "2-3"], "abcd\n", "bc\n"),
            (&["-b", "1,3"], "abcd\n", "ac\n"),
            (&["-c", "1", "--output-delimiter=:"], "abcd\n", "a\n"),
            (&["-c", "1,3", "--output-delimiter=:"], "abcd\n", "a:c\n"),
            (&["-d", ":", "-f", "5"], "a:b\n", "\n"),
            (&["-f1"], "x", "x\n"),
        ];
        for (args, input, out) in cases {
            check("cut", args, input, out, 0);
        }
        check_err("cut", &[], "", "cut: you must specify a list of bytes, characters, or fields\nTry 'cut --help' for more information.\n", 1);
        check_err("cut", &["-f", "0"], "", "cut: fields and positions are numbered from 1\nTry 'cut --help' for more information.\n", 1);
        check_err("cut", &["-d", "ab", "-f", "1"], "", "cut: the delimiter must be a single character\nTry 'cut --help' for more information.\n", 1);
    }
}
