//! cut -b LIST | -c LIST | -f LIST [-d DELIM] [-s] [--complement]
//!     [--output-delimiter=S] [-z] [FILE]...
//! -c counts bytes, as GNU cut does.

use crate::args::{flag, val, Spec};
use crate::bytescan::find_byte;
use crate::ctx::{lq, Ctx, Res};
use crate::input;
use std::io::{self, Read, Write};

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
            let n: usize = t.parse().map_err(|_| format!("invalid field value {}", lq(t)))?;
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

/// Read size: whole blocks are split into records in place instead of
/// copying each line out of a 64 KiB BufReader.
const BLOCK: usize = 256 * 1024;

/// Calls `f` with each record's body (its terminator removed; the last
/// record may lack one). A record longer than the block grows it. `buf` is
/// the read buffer, shared by all operands.
fn each_line<R: Read + ?Sized>(r: &mut R, eol: u8, buf: &mut Vec<u8>, mut f: impl FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
    if buf.len() < BLOCK {
        buf.resize(BLOCK, 0);
    }
    let mut len = 0;
    loop {
        if len == buf.len() {
            buf.resize(len * 2, 0);
        }
        let n = match r.read(&mut buf[len..]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            return if len > 0 { f(&buf[..len]) } else { Ok(()) };
        }
        // Bytes before the new ones hold no terminator (they were left over).
        let old = len;
        len += n;
        let mut start = 0;
        let mut from = old;
        while let Some(i) = find_byte(&buf[from..len], eol) {
            f(&buf[start..from + i])?;
            start = from + i + 1;
            from = start;
        }
        buf.copy_within(start..len, 0);
        len -= start;
    }
}

/// The fields of `line` picked by `ranges`, joined by `sep`, into `buf`.
/// Without --complement the scan stops after the last wanted field.
fn cut_fields(line: &[u8], delim: u8, sep: &[u8], ranges: &[(usize, usize)], comp: bool, buf: &mut Vec<u8>) {
    let last_wanted = if comp { usize::MAX } else { ranges.last().map(|r| r.1).unwrap_or(0) };
    let mut first = true;
    let mut start = 0;
    let mut i = 1;
    loop {
        let end = find_byte(&line[start..], delim).map(|p| start + p);
        if selected(ranges, i, comp) {
            if !first {
                buf.extend_from_slice(sep);
            }
            buf.extend_from_slice(&line[start..end.unwrap_or(line.len())]);
            first = false;
        }
        match end {
            Some(e) if i < last_wanted => start = e + 1,
            _ => return,
        }
        i += 1;
    }
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
    let mut read_buf = Vec::new();
    for name in input::or_stdin(&p.operands) {
        let mut r = match input::open(ctx.stdin, &name) {
            Ok(r) => r,
            Err(e) => {
                ctx.diag.file_err(ctx.out.failed, &name, e)?;
                continue;
            }
        };
        let out = &mut ctx.out;
        // Output collects in `buf` and leaves in large writes.
        let mut buf = Vec::with_capacity(input::BUF);
        let res = each_line(&mut *r, eol, &mut read_buf, |line| {
            if fields {
                if find_byte(line, delim).is_none() {
                    if only {
                        return Ok(());
                    }
                    buf.extend_from_slice(line);
                } else {
                    let sep: &[u8] = od.as_deref().unwrap_or(std::slice::from_ref(&delim));
                    cut_fields(line, delim, sep, &ranges, comp, &mut buf);
                }
            } else {
                let line_start = buf.len();
                let mut prev_sel = false;
                for (i, &b) in line.iter().enumerate() {
                    let s = selected(&ranges, i + 1, comp);
                    if s {
                        // --output-delimiter goes between separate byte ranges.
                        if let Some(od) = &od {
                            if !prev_sel && buf.len() > line_start {
                                buf.extend_from_slice(od);
                            }
                        }
                        buf.push(b);
                    }
                    prev_sel = s;
                }
            }
            buf.push(eol);
            if buf.len() >= input::BUF {
                out.write_all(&buf)?;
                buf.clear();
            }
            Ok(())
        });
        // Lines cut before a read error still go out, as they did line by line.
        let res = match res {
            Err(e) if out.failed => Err(e),
            res => out.write_all(&buf).and(res),
        };
        if let Err(e) = res {
            ctx.diag.file_err(ctx.out.failed, &name, e)?;
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::each_line;
    use crate::testutil::{check, check_err, run, Pieces};


    #[test]
    fn records_across_reads() {
        let mut many = Vec::new();
        for i in 0..40_000u32 {
            many.extend_from_slice(format!("{} a\tb\r", i).as_bytes());
            many.push(if i % 3 == 0 { 0 } else { b'\n' });
        }
        let mut huge = vec![b'x'; 600_000];
        huge.extend_from_slice(b"\nshort\n");
        huge.extend(vec![b'y'; 300_000]);
        let inputs: Vec<&[u8]> = vec![b"", b"\n", b"\n\n", b"a", b"a\nb", b"a\nb\n", &many, &huge];
        for data in inputs {
            for eol in [b'\n', 0] {
                let mut want: Vec<&[u8]> = data.split(|&b| b == eol).collect();
                if want.last().map(|l| l.is_empty()).unwrap_or(false) {
                    want.pop();
                }
                for sizes in [&[1usize][..], &[65_536], &[5, 70_000, 3], &[usize::MAX]] {
                    let mut got: Vec<Vec<u8>> = Vec::new();
                    each_line(&mut Pieces::new(data, sizes), eol, &mut Vec::new(), |l| {
                        got.push(l.to_vec());
                        Ok(())
                    })
                    .unwrap();
                    assert_eq!(got.len(), want.len(), "{} bytes, eol {}, {:?}", data.len(), eol, sizes);
                    assert!(got.iter().zip(&want).all(|(g, w)| g == w));
                }
            }
        }
    }

    #[test]
    fn edge_table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&["-d", " ", "-f", "2"], "", ""),
            (&["-d", " ", "-f", "2"], "a b\r\nc d\r\n", "b\r\nd\r\n"),
            (&["-d", " ", "-f", "2"], "a b c", "b\n"),
            (&["-d", " ", "-f", "2"], "a\0b c\n", "c\n"),
            (&["-d", " ", "-f", "1,3"], "a  c d\n", "a c\n"),
            (&["-d", " ", "-f", "3-"], "a b\na b c d\n", "\nc d\n"),
            (&["-d", " ", "-f", "2", "--complement"], "a b c\nx\n", "a c\nx\n"),
            (&["-d", " ", "-f", "2", "-s"], "a\nb c\n\n", "c\n"),
            (&["-z", "-d", " ", "-f", "2"], "a b\0c d\nz\0", "b\0d\nz\0"),
            (&["-b", "2-", "--output-delimiter=:"], "abc\nxyz\n", "bc\nyz\n"),
            (&["-b", "1,3", "--output-delimiter=:"], "abc\nxyz\n", "a:c\nx:z\n"),
        ];
        for (args, input, out) in cases {
            check("cut", args, input, out, 0);
        }
        // A line far longer than a read block.
        let long = format!("{} {}\nx y\n", "a".repeat(300_000), "b".repeat(70_000));
        let (code, out, _) = run("cut", &["-d", " ", "-f", "2"], &long);
        assert_eq!((code, out), (0, format!("{}\ny\n", "b".repeat(70_000))));
    }

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
