//! head [-n [-]N] [-c [-]N] [-qvz] [FILE]...  (also the old `head -N`)

use crate::args::{flag, val, Spec};
use crate::ctx::{Ctx, Res};
use crate::input;
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};

const SPECS: &[Spec] = &[
    val('c', "bytes", "c"),
    val('n', "lines", "n"),
    flag('q', "quiet", "q"),
    flag('q', "silent", "q"),
    flag('v', "verbose", "v"),
    flag('z', "zero-terminated", "z"),
];
const HELP: &str = "Usage: head [OPTION]... [FILE]...\nPrint the first 10 lines of each FILE to standard output.\nWith more than one FILE, precede each with a header giving the file name.\n\nWith no FILE, or when FILE is -, read standard input.\n\n  -c, --bytes=[-]NUM       print the first NUM bytes of each file;\n                             with the leading '-', print all but the last\n                             NUM bytes of each file\n  -n, --lines=[-]NUM       print the first NUM lines instead of the first 10;\n                             with the leading '-', print all but the last\n                             NUM lines of each file\n  -q, --quiet, --silent    never print headers giving file names\n  -v, --verbose            always print headers giving file names\n  -z, --zero-terminated    line delimiter is NUL, not newline\n\nNUM may have a multiplier suffix: b 512, kB 1000, K 1024, MB 1000*1000,\nM 1024*1024, GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E.\n";

/// `-5` / `-5c` as the first argument mean `-n 5` / `-c 5` (obsolete but common).
pub fn obsolete_count(args: &[String], allow_plus: bool) -> Vec<String> {
    if let Some(first) = args.first() {
        let sign = first.chars().next();
        let rest = &first[first.len().min(1)..];
        let ok_sign = sign == Some('-') || (allow_plus && sign == Some('+'));
        let digits = rest.trim_end_matches(|c| c == 'c' || c == 'l');
        if ok_sign && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) && rest.len() - digits.len() <= 1 {
            let opt = if rest.ends_with('c') { "-c" } else { "-n" };
            let v = if sign == Some('+') { format!("+{}", digits) } else { digits.to_string() };
            let mut out = vec![opt.to_string(), v];
            out.extend(args[1..].iter().cloned());
            return out;
        }
    }
    args.to_vec()
}

enum Mode {
    Lines(u64, bool),
    Bytes(u64, bool),
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let args = obsolete_count(args, false);
    let p = getopt!(ctx, &args, SPECS, HELP, 1);
    let mut mode = Mode::Lines(10, false);
    for f in &p.opts {
        let (is_bytes, v) = match f.key {
            "c" => (true, f.val.as_deref().unwrap_or("")),
            "n" => (false, f.val.as_deref().unwrap_or("")),
            _ => continue,
        };
        let (neg, digits) = match v.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, v),
        };
        let what = if is_bytes { "bytes" } else { "lines" };
        let n = match super::parse_count(ctx, what, digits) {
            Some(n) => n,
            None => return Ok(1),
        };
        mode = if is_bytes { Mode::Bytes(n, neg) } else { Mode::Lines(n, neg) };
    }
    let delim = if p.has("z") { b'\0' } else { b'\n' };
    let files = input::or_stdin(&p.operands);
    let headers = p.has("v") || (files.len() > 1 && !p.has("q"));
    for (i, name) in files.iter().enumerate() {
        let r = match input::open(ctx.stdin, name) {
            Ok(r) => r,
            Err(e) => {
                ctx.diag.error(format!("cannot open '{}' for reading: {}", name, crate::ctx::reason(&e)));
                continue;
            }
        };
        if headers {
            let shown = if name == "-" { "standard input" } else { name };
            write!(ctx.out, "{}==> {} <==\n", if i > 0 { "\n" } else { "" }, shown)?;
        }
        let res = match mode {
            Mode::Lines(n, false) => first_lines(r, &mut ctx.out, n, delim),
            Mode::Lines(n, true) => all_but_last_lines(r, &mut ctx.out, n, delim).map(|_| 0),
            Mode::Bytes(n, false) => first_bytes(r, &mut ctx.out, n),
            Mode::Bytes(n, true) => all_but_last_bytes(r, &mut ctx.out, n).map(|_| 0),
        };
        // As GNU head: on a seekable stdin (a `< file`) the bytes read past the last one
        // printed go back, so the next command on the same fd starts right after it.
        let res = res.map(|unused| {
            if name == "-" && unused > 0 {
                input::unread_stdin(unused);
            }
        });
        if let Err(e) = res {
            ctx.diag.file_err(ctx.out.failed, name, e)?;
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

/// Prints the first `n` records; answers how many bytes it read but did not print.
fn first_lines(mut r: Box<dyn BufRead + '_>, out: &mut dyn Write, n: u64, delim: u8) -> io::Result<u64> {
    let mut left = n;
    while left > 0 {
        let (used, unused) = {
            let buf = r.fill_buf()?;
            if buf.is_empty() {
                return Ok(0);
            }
            let mut end = buf.len();
            for i in memchr::memchr_iter(delim, buf) {
                left -= 1;
                if left == 0 {
                    end = i + 1;
                    break;
                }
            }
            out.write_all(&buf[..end])?;
            (end, buf.len() - end)
        };
        r.consume(used);
        if left == 0 {
            return Ok(unused as u64);
        }
    }
    Ok(0)
}

fn all_but_last_lines(r: Box<dyn BufRead + '_>, out: &mut dyn Write, n: u64, delim: u8) -> io::Result<()> {
    let mut ring: VecDeque<Vec<u8>> = VecDeque::new();
    let mut r = r;
    input::each_record(&mut r, delim, |rec| {
        ring.push_back(rec.to_vec());
        if ring.len() as u64 > n {
            let l = ring.pop_front().unwrap();
            out.write_all(&l)?;
        }
        Ok(true)
    })
}

/// Prints the first `n` bytes; answers how many bytes it read but did not print.
fn first_bytes(mut r: Box<dyn BufRead + '_>, out: &mut dyn Write, n: u64) -> io::Result<u64> {
    let mut left = n;
    while left > 0 {
        let (used, unused) = {
            let buf = r.fill_buf()?;
            if buf.is_empty() {
                return Ok(0);
            }
            let k = (buf.len() as u64).min(left) as usize;
            out.write_all(&buf[..k])?;
            (k, buf.len() - k)
        };
        left -= used as u64;
        r.consume(used);
        if left == 0 {
            return Ok(unused as u64);
        }
    }
    Ok(0)
}

fn all_but_last_bytes(mut r: Box<dyn BufRead + '_>, out: &mut dyn Write, n: u64) -> io::Result<()> {
    let n = n as usize;
    let mut pending: Vec<u8> = Vec::new();
    loop {
        let used = {
            let buf = r.fill_buf()?;
            if buf.is_empty() {
                return Ok(());
            }
            pending.extend_from_slice(buf);
            buf.len()
        };
        r.consume(used);
        if pending.len() > n {
            let k = pending.len() - n;
            out.write_all(&pending[..k])?;
            pending.drain(..k);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err, tmpdir, write};

    const TWELVE: &str = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&[], TWELVE, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"),
            (&["-n", "2"], "a\nb\nc\n", "a\nb\n"),
            (&["-n2"], "a\nb\nc\n", "a\nb\n"),
            (&["-2"], "a\nb\nc\n", "a\nb\n"),
            (&["--lines=1"], "a\nb\n", "a\n"),
            (&["-n", "-1"], "a\nb\nc\n", "a\nb\n"),
            (&["-n", "-5"], "a\nb\n", ""),
            (&["-c", "3"], "abcdef", "abc"),
            (&["-c", "-2"], "abcdef", "abcd"),
            (&["-c", "1K"], "ab", "ab"),
            (&["-n", "0"], "a\n", ""),
            (&["-z", "-n", "1"], "a\0b\0", "a\0"),
            (&["-n", "5"], "no newline", "no newline"),
        ];
        for (args, input, out) in cases {
            check("head", args, input, out, 0);
        }
        check_err("head", &["-n", "x"], "", "head: invalid number of lines: ‘x’\n", 1);
    }

    #[test]
    fn headers() {
        let d = tmpdir();
        let (a, b) = (format!("{}/a", d), format!("{}/b", d));
        write(&a, "A1\nA2\n");
        write(&b, "B1\n");
        check("head", &["-n1", &a, &b], "", &format!("==> {} <==\nA1\n\n==> {} <==\nB1\n", a, b), 0);
        check("head", &["-q", "-n1", &a, &b], "", "A1\nB1\n", 0);
        check("head", &["-v", "-n1", "-"], "x\n", "==> standard input <==\nx\n", 0);
        let m = format!("{}/m", d);
        check_err("head", &[&m], "", &format!("head: cannot open '{}' for reading: No such file or directory\n", m), 1);
    }
}
