//! tail [-n [+]N] [-c [+]N] [-qvz] [FILE]...  (also `tail -N`, `tail +N`)
//!
//! Regular files are read backwards from the end, so `tail big.log` costs
//! the size of the answer, not of the file. Following (-f) is refused: a
//! sandboxed run must end by itself.

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{reason, Ctx, Res};
use crate::{fsx, input};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom, Write};

const SPECS: &[Spec] = &[
    val('c', "bytes", "c"),
    val('n', "lines", "n"),
    flag('q', "quiet", "q"),
    flag('q', "silent", "q"),
    flag('v', "verbose", "v"),
    flag('z', "zero-terminated", "z"),
    optval('f', "follow", "f"),
    flag('F', "", "f"),
    flag('\0', "retry", "retry"),
    val('s', "sleep-interval", "s"),
    val('\0', "pid", "pid"),
    // Only -F reads it, and following is not available here.
    val('\0', "max-unchanged-stats", "max-unchanged-stats"),
];
const HELP: &str = "Usage: tail [OPTION]... [FILE]...\nPrint the last 10 lines of each FILE to standard output.\nWith more than one FILE, precede each with a header giving the file name.\n\nWith no FILE, or when FILE is -, read standard input.\n\n  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM to\n                             output starting with byte NUM of each file\n  -n, --lines=[+]NUM       output the last NUM lines, instead of the last 10;\n                             or use -n +NUM to skip NUM-1 lines at the start\n  -q, --quiet, --silent    never output headers giving file names\n  -v, --verbose            always output headers giving file names\n  -z, --zero-terminated    line delimiter is NUL, not newline\n\n-f/--follow is not available in this sandbox.\n";

#[derive(Clone, Copy)]
enum Mode {
    /// last N records / bytes
    Last(u64),
    /// from record / byte N (1-based) on
    From(u64),
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let args = super::head::obsolete_count(args, true);
    let p = getopt!(ctx, &args, SPECS, HELP, 1);
    if p.has("f") {
        ctx.diag.error("following files (-f, -F, --follow) is not supported in this sandbox");
        return Ok(1);
    }
    let mut mode = Mode::Last(10);
    let mut bytes = false;
    for f in &p.opts {
        let is_bytes = match f.key {
            "c" => true,
            "n" => false,
            _ => continue,
        };
        let v = f.val.as_deref().unwrap_or("");
        let (from, digits) = match v.strip_prefix('+') {
            Some(d) => (true, d),
            None => (false, v.strip_prefix('-').unwrap_or(v)),
        };
        let n = match super::parse_count(ctx, if is_bytes { "bytes" } else { "lines" }, digits) {
            Some(n) => n,
            None => return Ok(1),
        };
        bytes = is_bytes;
        mode = if from { Mode::From(n) } else { Mode::Last(n) };
    }
    let delim = if p.has("z") { b'\0' } else { b'\n' };
    let files = input::or_stdin(&p.operands);
    let headers = p.has("v") || (files.len() > 1 && !p.has("q"));
    let mut first = true;
    for name in &files {
        let res = if name == "-" {
            header(ctx, headers, &mut first, "standard input")?;
            let r: &mut dyn BufRead = &mut *ctx.stdin;
            stream(r, &mut ctx.out, mode, bytes, delim)
        } else {
            let f = match File::open(fsx::host(name)) {
                Ok(f) => f,
                Err(e) => {
                    ctx.diag.error(format!("cannot open '{}' for reading: {}", name, reason(&e)));
                    continue;
                }
            };
            let meta = f.metadata();
            if meta.as_ref().map(|m| m.is_dir()).unwrap_or(false) {
                header(ctx, headers, &mut first, name)?;
                ctx.diag.error(format!("error reading '{}': Is a directory", name));
                continue;
            }
            header(ctx, headers, &mut first, name)?;
            match (meta, mode) {
                (Ok(m), Mode::Last(n)) if m.is_file() => from_end(f, m.len(), &mut ctx.out, n, bytes, delim),
                _ => {
                    let mut r = io::BufReader::with_capacity(input::BUF, f);
                    stream(&mut r, &mut ctx.out, mode, bytes, delim)
                }
            }
        };
        if let Err(e) = res {
            ctx.diag.file_err(ctx.out.failed, name, e)?;
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

fn header(ctx: &mut Ctx, on: bool, first: &mut bool, name: &str) -> io::Result<()> {
    if on {
        write!(ctx.out, "{}==> {} <==\n", if *first { "" } else { "\n" }, name)?;
    }
    *first = false;
    Ok(())
}

/// Works on anything readable once, front to back.
fn stream(r: &mut dyn BufRead, out: &mut dyn Write, mode: Mode, bytes: bool, delim: u8) -> io::Result<()> {
    match (mode, bytes) {
        (Mode::From(n), true) => {
            let skip = n.saturating_sub(1);
            io::copy(&mut r.take(skip), &mut io::sink())?;
            copy_rest(r, out)
        }
        (Mode::From(n), false) => {
            let mut skip = n.saturating_sub(1);
            let mut rec = Vec::new();
            while skip > 0 {
                rec.clear();
                if r.read_until(delim, &mut rec)? == 0 {
                    return Ok(());
                }
                skip -= 1;
            }
            copy_rest(r, out)
        }
        (Mode::Last(n), true) => {
            let n = n as usize;
            let mut keep: VecDeque<u8> = VecDeque::new();
            loop {
                let used = {
                    let buf = r.fill_buf()?;
                    if buf.is_empty() {
                        break;
                    }
                    keep.extend(buf.iter());
                    buf.len()
                };
                r.consume(used);
                while keep.len() > n {
                    let extra = keep.len() - n;
                    keep.drain(..extra);
                }
            }
            let (a, b) = keep.as_slices();
            out.write_all(a)?;
            out.write_all(b)
        }
        (Mode::Last(n), false) => {
            let mut ring: VecDeque<Vec<u8>> = VecDeque::new();
            if n == 0 {
                return io::copy(r, &mut io::sink()).map(|_| ());
            }
            input::each_record(r, delim, |rec| {
                if ring.len() as u64 == n {
                    let mut old = ring.pop_front().unwrap();
                    old.clear();
                    old.extend_from_slice(rec);
                    ring.push_back(old);
                } else {
                    ring.push_back(rec.to_vec());
                }
                Ok(true)
            })?;
            for l in ring {
                out.write_all(&l)?;
            }
            Ok(())
        }
    }
}

fn copy_rest(r: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()> {
    loop {
        let n = {
            let buf = r.fill_buf()?;
            if buf.is_empty() {
                return Ok(());
            }
            out.write_all(buf)?;
            buf.len()
        };
        r.consume(n);
    }
}

/// Finds where the last `n` records (or bytes) start by reading blocks
/// backwards, then copies from there to the end.
fn from_end(mut f: File, len: u64, out: &mut dyn Write, n: u64, bytes: bool, delim: u8) -> io::Result<()> {
    let start = if bytes {
        len.saturating_sub(n)
    } else if n == 0 {
        len
    } else {
        let mut pos = len;
        let mut seen = 0u64;
        let mut block = vec![0u8; input::BUF];
        let mut start = 0u64;
        let mut last_byte = true;
        'outer: while pos > 0 {
            let k = (pos.min(block.len() as u64)) as usize;
            pos -= k as u64;
            f.seek(SeekFrom::Start(pos))?;
            f.read_exact(&mut block[..k])?;
            for i in (0..k).rev() {
                if block[i] == delim {
                    // The file's final terminator ends the last record; it
                    // does not start a new one.
                    if last_byte && pos + i as u64 == len - 1 {
                        continue;
                    }
                    seen += 1;
                    if seen == n {
                        start = pos + i as u64 + 1;
                        break 'outer;
                    }
                }
            }
            last_byte = false;
        }
        start
    };
    f.seek(SeekFrom::Start(start))?;
    let mut r = io::BufReader::with_capacity(input::BUF, f);
    copy_rest(&mut r, out)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err, tmpdir, write};

    const TWELVE: &str = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";

    #[test]
    fn stdin_table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&[], TWELVE, "3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"),
            (&["-n", "2"], "a\nb\nc\n", "b\nc\n"),
            (&["-2"], "a\nb\nc\n", "b\nc\n"),
            (&["-n", "+2"], "a\nb\nc\n", "b\nc\n"),
            (&["+2"], "a\nb\nc\n", "b\nc\n"),
            (&["-n", "1"], "a\nb", "b"),
            (&["-c", "3"], "abcdef", "def"),
            (&["-c", "+3"], "abcdef", "cdef"),
            (&["-n", "0"], "a\n", ""),
            (&["-n", "5"], "a\nb\n", "a\nb\n"),
            (&["-z", "-n", "1"], "a\0b\0", "b\0"),
        ];
        for (args, input, out) in cases {
            check("tail", args, input, out, 0);
        }
        check_err("tail", &["-f"], "", "tail: following files (-f, -F, --follow) is not supported in this sandbox\n", 1);
    }

    #[test]
    fn files_from_end() {
        let d = tmpdir();
        let f = format!("{}/f", d);
        // Larger than one block, to cross block boundaries backwards.
        let mut text = String::new();
        for i in 1..=30000 {
            text.push_str(&format!("line {}\n", i));
        }
        write(&f, &text);
        check("tail", &["-n", "2", &f], "", "line 29999\nline 30000\n", 0);
        check("tail", &["-c", "6", &f], "", "30000\n", 0);
        let lines: Vec<&str> = text.lines().collect();
        let want: String = lines[lines.len() - 9000..].iter().map(|l| format!("{}\n", l)).collect();
        check("tail", &["-n", "9000", &f], "", &want, 0);
        let g = format!("{}/g", d);
        write(&g, "a\nb\nc");
        check("tail", &["-n", "2", &g], "", "b\nc", 0);
        check("tail", &["-n", "5", &g], "", "a\nb\nc", 0);
        check("tail", &["-n", "+3", &g], "", "c", 0);
        check("tail", &["-n1", &g, &f], "", &format!("==> {} <==\nc\n==> {} <==\nline 30000\n", g, f), 0);
    }
}
