//! cmp [-b] [-l] [-s] [-i SKIP] [-n LIMIT] FILE1 [FILE2] — byte-by-byte
//! comparison in GNU's words; status 0 same, 1 different, 2 trouble.

use crate::args::{flag, val, Spec};
use crate::ctx::{reason, Ctx, Res};
use crate::input;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    flag('b', "print-bytes", "b"),
    flag('l', "verbose", "l"),
    flag('s', "quiet", "s"),
    flag('s', "silent", "s"),
    val('i', "ignore-initial", "i"),
    val('n', "bytes", "n"),
    flag('v', "", crate::args::VERSION),
];
const HELP: &str = "Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]\nCompare two files byte by byte.\n\n  -b, --print-bytes          print differing bytes\n  -i, --ignore-initial=SKIP  skip first SKIP bytes of both inputs\n  -l, --verbose              output byte numbers and differing byte values\n  -n, --bytes=LIMIT          compare at most LIMIT bytes\n  -s, --quiet, --silent      suppress all normal output\n\nExit status is 0 if inputs are the same, 1 if different, 2 if trouble.\n";

/// GNU says "char" in the POSIX locale (as POSIX words it) and "byte" in any other.
fn differ_word() -> &'static str {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].iter().find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()));
    match locale.as_deref() {
        None | Some("C") | Some("POSIX") => "char",
        _ => "byte",
    }
}

/// SKIP or SKIP1:SKIP2 of -i.
fn skips(s: &str) -> Option<(usize, usize)> {
    let num = |s: &str| crate::num::parse_size(s).map(|n| n as usize);
    match s.split_once(':') {
        Some((a, b)) => Some((num(a)?, num(b)?)),
        None => num(s).map(|n| (n, n)),
    }
}

fn show(b: u8) -> String {
    let mut v = Vec::new();
    crate::text::push_visible(&mut v, b);
    String::from_utf8_lossy(&v).into_owned()
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 2);
    let ops = &p.operands;
    if ops.is_empty() {
        ctx.diag.usage("missing operand after 'cmp'");
        return Ok(2);
    }
    if ops.len() > 4 {
        crate::cmd::extra_operand(ctx, &ops[4]);
        return Ok(2);
    }
    let n1 = ops[0].clone();
    let n2 = ops.get(1).cloned().unwrap_or_else(|| "-".into());
    let num = |s: &str| crate::num::parse_size(s);
    let (skip_1, skip_2) = match p.last("i").map(skips) {
        Some(Some(n)) => n,
        Some(None) => {
            ctx.diag.error(format!("invalid --ignore-initial value '{}'", p.last("i").unwrap()));
            return Ok(2);
        }
        None => (0, 0),
    };
    let skip1 = ops.get(2).and_then(|s| num(s)).map(|n| n as usize).unwrap_or(skip_1);
    let skip2 = ops.get(3).and_then(|s| num(s)).map(|n| n as usize).unwrap_or(skip_2);
    let limit = p.last("n").and_then(num).map(|n| n as usize);
    let mut read = |name: &str| -> Option<Vec<u8>> {
        let mut d = Vec::new();
        match input::open(ctx.stdin, name).and_then(|mut r| r.read_to_end(&mut d)) {
            Ok(_) => Some(d),
            Err(e) => {
                ctx.diag.error(format!("{}: {}", name, reason(&e)));
                None
            }
        }
    };
    let a = read(&n1);
    let b = if n2 == "-" && n1 == "-" { a.clone() } else { read(&n2) };
    let (a, b) = match (a, b) {
        (Some(a), Some(b)) => (a, b),
        _ => return Ok(2),
    };
    let a = &a[skip1.min(a.len())..];
    let b = &b[skip2.min(b.len())..];
    let (a, b) = match limit {
        Some(l) => (&a[..l.min(a.len())], &b[..l.min(b.len())]),
        None => (a, b),
    };
    // -l pads byte numbers to the width of the last one it could print: the shorter regular
    // file's length; a pipe's (stdin, `<(...)`) is unknown, so with only pipes the largest
    // off_t (19 digits).
    let regular = |n: &str| n != "-" && !n.starts_with("/dev/fd/") && crate::fsx::metadata(n).map(|m| m.is_file()).unwrap_or(false);
    let sizes = [(&n1, a.len()), (&n2, b.len())];
    let most = sizes.iter().filter(|(n, _)| regular(n)).map(|(_, l)| *l as u64).min().or(limit.map(|l| l as u64)).unwrap_or(i64::MAX as u64);
    let width = most.max(1).to_string().len();
    let quiet = p.has("s");
    let mut line = 1;
    let mut differ = false;
    let n = a.len().min(b.len());
    for i in 0..n {
        if a[i] != b[i] {
            differ = true;
            if quiet {
                return Ok(1);
            }
            if p.has("l") {
                if p.has("b") {
                    writeln!(ctx.out, "{:w$} {:3o} {:<4} {:3o} {}", i + 1, a[i], show(a[i]), b[i], show(b[i]), w = width)?;
                } else {
                    writeln!(ctx.out, "{:w$} {:3o} {:3o}", i + 1, a[i], b[i], w = width)?;
                }
                continue;
            }
            if p.has("b") {
                writeln!(ctx.out, "{} {} differ: byte {}, line {} is {:3o} {} {:3o} {}", n1, n2, i + 1, line, a[i], show(a[i]), b[i], show(b[i]))?;
            } else {
                writeln!(ctx.out, "{} {} differ: {} {}, line {}", n1, n2, differ_word(), i + 1, line)?;
            }
            return Ok(1);
        }
        if a[i] == b'\n' {
            line += 1;
        }
    }
    if a.len() != b.len() {
        if !quiet {
            let short = if a.len() < b.len() { &n1 } else { &n2 };
            if n == 0 {
                let _ = writeln!(ctx.diag.raw(), "cmp: EOF on {} which is empty", short);
            } else if p.has("l") {
                let _ = writeln!(ctx.diag.raw(), "cmp: EOF on {} after byte {}", short, n);
            } else {
                let _ = writeln!(ctx.diag.raw(), "cmp: EOF on {} after byte {}, line {}", short, n, line - (a.get(n - 1) == Some(&b'\n')) as usize);
            }
        }
        return Ok(1);
    }
    Ok(if differ { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err, tmpdir, write};

    #[test]
    fn table() {
        let d = tmpdir();
        let (c1, c2, c3) = (format!("{}/c1", d), format!("{}/c2", d), format!("{}/c3", d));
        write(&c1, "abc\ndef\n");
        write(&c2, "abc\ndxf\n");
        write(&c3, "abc\n");
        check("cmp", &[&c1, &c1], "", "", 0);
        check("cmp", &[&c1, &c2], "", &format!("{} {} differ: {} 6, line 2\n", c1, c2, super::differ_word()), 1);
        check("cmp", &["-l", &c1, &c2], "", "6 145 170\n", 1);
        check("cmp", &["-s", &c1, &c2], "", "", 1);
        check("cmp", &["-b", &c1, &c2], "", &format!("{} {} differ: byte 6, line 2 is 145 e 170 x\n", c1, c2), 1);
        check_err("cmp", &[&c1, &c3], "", &format!("cmp: EOF on {} after byte 4, line 1\n", c3), 1);
        check_err("cmp", &[&c1, "/nonexistent/q"], "", "cmp: /nonexistent/q: No such file or directory\n", 2);
        check("cmp", &[&c1, "-"], "abc\ndef\n", "", 0);
    }
}
