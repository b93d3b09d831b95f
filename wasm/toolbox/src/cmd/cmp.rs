//! cmp [-b] [-l] [-s] [-i SKIP] [-n LIMIT] FILE1 [FILE2] — byte-by-byte
//! comparison in GNU's words; status 0 same, 1 different, 2 trouble.

use crate::args::{flag, val, Spec};
use crate::ctx::{reason, Ctx, Res};
use crate::input;
use std::io::{self, BufRead, Write};

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
fn skips(s: &str) -> Option<(u64, u64)> {
    let num = crate::num::parse_size;
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
    let skip1 = ops.get(2).and_then(|s| num(s)).unwrap_or(skip_1);
    let skip2 = ops.get(3).and_then(|s| num(s)).unwrap_or(skip_2);
    let limit = p.last("n").and_then(num);
    let (quiet, verbose, bytes) = (p.has("s"), p.has("l"), p.has("b"));
    // -l pads byte numbers to the width of the last one it could print: the shorter regular
    // file's length after SKIP and LIMIT (from its size, as it is not read whole); a pipe's
    // (stdin, `<(...)`) is unknown, so with only pipes the largest off_t (19 digits).
    let width = if verbose {
        let left = |n: &str, skip: u64| -> Option<u64> {
            if n == "-" || n.starts_with("/dev/fd/") {
                return None;
            }
            let m = crate::fsx::metadata(n).ok().filter(|m| m.is_file())?;
            let l = m.len().saturating_sub(skip);
            Some(limit.map_or(l, |lim| l.min(lim)))
        };
        let most = [left(&n1, skip1), left(&n2, skip2)].into_iter().flatten().min().or(limit).unwrap_or(i64::MAX as u64);
        most.max(1).to_string().len()
    } else {
        1
    };
    // Both inputs stream in blocks, so files larger than a program's memory compare. With both
    // operands `-`, GNU compares stdin with itself: read it once and walk it twice.
    let whole: Vec<u8>;
    let (mut e1, mut e2) = (io::empty(), io::empty());
    let (r1, r2): (io::Result<Box<dyn BufRead + '_>>, io::Result<Box<dyn BufRead + '_>>) = if n1 == "-" && n2 == "-" {
        let mut d = Vec::new();
        if let Err(e) = ctx.stdin.read_to_end(&mut d) {
            ctx.diag.error(format!("-: {}", reason(&e)));
            return Ok(2);
        }
        whole = d;
        (Ok(Box::new(&whole[..])), Ok(Box::new(&whole[..])))
    } else {
        let (s1, s2): (&mut dyn BufRead, &mut dyn BufRead) = if n1 == "-" {
            (&mut *ctx.stdin, &mut e2)
        } else if n2 == "-" {
            (&mut e1, &mut *ctx.stdin)
        } else {
            (&mut e1, &mut e2)
        };
        (input::open(s1, &n1), input::open(s2, &n2))
    };
    let mut failed = false;
    for (r, n) in [(&r1, &n1), (&r2, &n2)] {
        if let Err(e) = r {
            ctx.diag.error(format!("{}: {}", n, reason(e)));
            failed = true;
        }
    }
    let (mut r1, mut r2) = match (r1, r2) {
        (Ok(a), Ok(b)) if !failed => (a, b),
        _ => return Ok(2),
    };
    for (r, n, skip) in [(&mut r1, &n1, skip1), (&mut r2, &n2, skip2)] {
        if let Err(e) = skip_bytes(r.as_mut(), skip) {
            ctx.diag.error(format!("{}: {}", n, reason(&e)));
            return Ok(2);
        }
    }
    let count_lines = !quiet && !verbose;
    let mut pos: u64 = 0; // bytes compared so far
    let mut line: u64 = 1;
    let mut last = 0u8; // the last byte compared (of the first input)
    let mut differ = false;
    loop {
        let room = limit.map_or(u64::MAX, |l| l - pos);
        if room == 0 {
            break;
        }
        let a = match r1.fill_buf() {
            Ok(a) => a,
            Err(e) => {
                ctx.diag.error(format!("{}: {}", n1, reason(&e)));
                return Ok(2);
            }
        };
        let b = match r2.fill_buf() {
            Ok(b) => b,
            Err(e) => {
                ctx.diag.error(format!("{}: {}", n2, reason(&e)));
                return Ok(2);
            }
        };
        if a.is_empty() || b.is_empty() {
            if a.is_empty() && b.is_empty() {
                break;
            }
            if !quiet {
                let short = if a.is_empty() { &n1 } else { &n2 };
                if pos == 0 {
                    let _ = writeln!(ctx.diag.raw(), "cmp: EOF on {} which is empty", short);
                } else if verbose {
                    let _ = writeln!(ctx.diag.raw(), "cmp: EOF on {} after byte {}", short, pos);
                } else {
                    // GNU: "line L" when the input ended a line, "in line L" when it stopped inside one.
                    let (line, inside) = if last == b'\n' { (line - 1, "") } else { (line, "in ") };
                    let _ = writeln!(ctx.diag.raw(), "cmp: EOF on {} after byte {}, {}line {}", short, pos, inside, line);
                }
            }
            return Ok(1);
        }
        let k = a.len().min(b.len()).min(room.min(usize::MAX as u64) as usize);
        let (a, b) = (&a[..k], &b[..k]);
        if a != b {
            differ = true;
            if quiet {
                return Ok(1);
            }
            if !verbose {
                let i = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(0);
                let at = pos + i as u64 + 1;
                let line = line + newlines(&a[..i]);
                if bytes {
                    writeln!(ctx.out, "{} {} differ: byte {}, line {} is {:3o} {} {:3o} {}", n1, n2, at, line, a[i], show(a[i]), b[i], show(b[i]))?;
                } else {
                    writeln!(ctx.out, "{} {} differ: {} {}, line {}", n1, n2, differ_word(), at, line)?;
                }
                return Ok(1);
            }
            for (i, (&x, &y)) in a.iter().zip(b).enumerate().filter(|(_, (x, y))| x != y) {
                let at = pos + i as u64 + 1;
                if bytes {
                    writeln!(ctx.out, "{:w$} {:3o} {:<4} {:3o} {}", at, x, show(x), y, show(y), w = width)?;
                } else {
                    writeln!(ctx.out, "{:w$} {:3o} {:3o}", at, x, y, w = width)?;
                }
            }
        }
        if count_lines {
            line += newlines(a);
        }
        last = a[k - 1];
        r1.consume(k);
        r2.consume(k);
        pos += k as u64;
    }
    Ok(if differ { 1 } else { 0 })
}

fn newlines(s: &[u8]) -> u64 {
    s.iter().filter(|&&c| c == b'\n').count() as u64
}

/// Reads past the first `n` bytes (fewer if the input ends first), block by block.
fn skip_bytes(r: &mut dyn BufRead, mut n: u64) -> io::Result<()> {
    while n > 0 {
        let got = r.fill_buf()?.len();
        if got == 0 {
            break;
        }
        let k = (got as u64).min(n) as usize;
        r.consume(k);
        n -= k as u64;
    }
    Ok(())
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

    /// The comparison as cmp did it before it streamed (both inputs whole in memory): the oracle
    /// the block-by-block version must match. `reg` says whether each operand is a regular file.
    #[allow(clippy::too_many_arguments)]
    fn whole(n: [&str; 2], data: [&[u8]; 2], reg: [bool; 2], skip: [usize; 2], limit: Option<usize>, flags: &str) -> (i32, String, String) {
        use std::fmt::Write;
        let (mut out, mut err) = (String::new(), String::new());
        let (quiet, verbose, bytes) = (flags.contains('s'), flags.contains('l'), flags.contains('b'));
        let cut = |d: &[u8], s: usize| -> Vec<u8> {
            let d = &d[s.min(d.len())..];
            d[..limit.unwrap_or(usize::MAX).min(d.len())].to_vec()
        };
        let (a, b) = (cut(data[0], skip[0]), cut(data[1], skip[1]));
        let sizes = [(reg[0], a.len()), (reg[1], b.len())];
        let most = sizes.iter().filter(|(r, _)| *r).map(|(_, l)| *l as u64).min().or(limit.map(|l| l as u64)).unwrap_or(i64::MAX as u64);
        let width = most.max(1).to_string().len();
        let mut line = 1;
        let mut differ = false;
        let m = a.len().min(b.len());
        for i in 0..m {
            if a[i] != b[i] {
                differ = true;
                if quiet {
                    return (1, out, err);
                }
                if verbose {
                    if bytes {
                        writeln!(out, "{:w$} {:3o} {:<4} {:3o} {}", i + 1, a[i], super::show(a[i]), b[i], super::show(b[i]), w = width).unwrap();
                    } else {
                        writeln!(out, "{:w$} {:3o} {:3o}", i + 1, a[i], b[i], w = width).unwrap();
                    }
                    continue;
                }
                if bytes {
                    writeln!(out, "{} {} differ: byte {}, line {} is {:3o} {} {:3o} {}", n[0], n[1], i + 1, line, a[i], super::show(a[i]), b[i], super::show(b[i])).unwrap();
                } else {
                    writeln!(out, "{} {} differ: {} {}, line {}", n[0], n[1], super::differ_word(), i + 1, line).unwrap();
                }
                return (1, out, err);
            }
            if a[i] == b'\n' {
                line += 1;
            }
        }
        if a.len() != b.len() {
            if !quiet {
                let short = if a.len() < b.len() { n[0] } else { n[1] };
                if m == 0 {
                    writeln!(err, "cmp: EOF on {} which is empty", short).unwrap();
                } else if verbose {
                    writeln!(err, "cmp: EOF on {} after byte {}", short, m).unwrap();
                } else {
                    // As GNU (and the streaming cmp) words it: "in line L" when the input stopped inside a line.
                    let ended = a.get(m - 1) == Some(&b'\n');
                    writeln!(err, "cmp: EOF on {} after byte {}, {}line {}", short, m, if ended { "" } else { "in " }, line - ended as usize).unwrap();
                }
            }
            return (1, out, err);
        }
        (if differ { 1 } else { 0 }, out, err)
    }

    /// Runs cmp with raw bytes on stdin (the shared runner takes text).
    fn run_bytes(args: &[String], stdin: &[u8]) -> (i32, String, String) {
        // The session's locale, as testutil::run sets it for every test.
        std::env::set_var("LANG", "C.UTF-8");
        std::env::remove_var("LC_ALL");
        let mut input = std::io::Cursor::new(stdin.to_vec());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = crate::run("cmp", args, &mut input, &mut out, &mut err);
        (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
    }

    /// Inputs of several 64 KiB blocks (crate::input::BUF) with differences just before, on and
    /// after block boundaries, lines counted across blocks, SKIP and LIMIT crossing boundaries,
    /// many differences for -l, unequal lengths: every answer must be the whole-input one.
    #[test]
    fn streams_like_whole() {
        const B: usize = crate::input::BUF;
        let d = tmpdir();
        // 300 KB of lines of varied lengths, so newlines fall on both sides of each boundary.
        let mut base = Vec::new();
        let mut k = 0usize;
        while base.len() < 300_000 {
            base.extend_from_slice(format!("line {} {}\n", k, "x".repeat(k % 97)).as_bytes());
            k += 1;
        }
        base.truncate(300_000);
        let mut files: Vec<(String, Vec<u8>)> = Vec::new();
        let mut add = |name: &str, data: Vec<u8>| {
            let path = format!("{}/{}", d, name);
            std::fs::write(&path, &data).unwrap();
            files.push((path, data));
        };
        add("base", base.clone());
        let flip = |at: &[usize]| {
            let mut v = base.clone();
            for &i in at {
                v[i] = if v[i] == b'Q' { b'R' } else { b'Q' };
            }
            v
        };
        add("before", flip(&[B - 1]));
        add("on", flip(&[B]));
        add("after", flip(&[B + 1]));
        add("late", flip(&[3 * B + 17, 4 * B - 1]));
        add("nl", {
            // A newline turned into another byte right at a boundary.
            let mut v = base.clone();
            let nl = (B..).find(|&i| v[i] == b'\n').unwrap();
            v[nl] = b'#';
            v
        });
        add("many", flip(&(0..base.len()).step_by(4099).collect::<Vec<_>>()));
        add("short", base[..2 * B].to_vec());
        add("shortnl", {
            let end = (2 * B..).find(|&i| base[i] == b'\n').unwrap();
            base[..=end].to_vec()
        });
        add("empty", Vec::new());
        let skips: &[(usize, usize)] = &[(0, 0), (B - 3, B - 3), (B + 5, 7), (1, 0), (400_000, 0)];
        let limits: &[Option<usize>] = &[None, Some(B), Some(B + 1), Some(2 * B + 100), Some(0)];
        let flags = ["", "b", "l", "lb", "s"];
        let mut cases = 0;
        for (p1, d1) in files.iter().take(1) {
            for (p2, d2) in &files {
                for &(s1, s2) in skips {
                    for &lim in limits {
                        for f in flags {
                            let mut args: Vec<String> = Vec::new();
                            if !f.is_empty() {
                                args.push(format!("-{}", f));
                            }
                            if let Some(l) = lim {
                                args.push(format!("--bytes={}", l));
                            }
                            args.push(format!("--ignore-initial={}:{}", s1, s2));
                            // Files both ways round, and the first through stdin (a pipe: no size).
                            for (n, data, reg, stdin) in [
                                ([p1.as_str(), p2.as_str()], [d1.as_slice(), d2.as_slice()], [true, true], &[][..]),
                                ([p2.as_str(), p1.as_str()], [d2.as_slice(), d1.as_slice()], [true, true], &[][..]),
                                (["-", p2.as_str()], [d1.as_slice(), d2.as_slice()], [false, true], d1.as_slice()),
                            ] {
                                let mut a = args.clone();
                                a.push(n[0].to_string());
                                a.push(n[1].to_string());
                                let want = whole(n, data, reg, [s1, s2], lim, f);
                                assert_eq!(run_bytes(&a, stdin), want, "cmp {:?}", a);
                                cases += 1;
                            }
                        }
                    }
                }
            }
        }
        // Both operands stdin: compared with itself (skips differ, so bytes do).
        for (s1, s2) in [(0, 0), (B - 1, B + 2)] {
            let a: Vec<String> = vec![format!("-i{}:{}", s1, s2), "-".into(), "-".into()];
            assert_eq!(run_bytes(&a, &base), whole(["-", "-"], [&base, &base], [false, false], [s1, s2], None, ""), "cmp {:?}", a);
        }
        assert!(cases > 3000);
    }
}
