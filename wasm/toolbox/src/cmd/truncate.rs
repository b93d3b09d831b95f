//! truncate [-c] [-o] -s [+-<>/%]SIZE | -r RFILE FILE... — set file sizes;
//! missing files are created (unless -c), extended with zeros or cut.

use crate::args::{flag, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::fsx;
use std::fs::OpenOptions;

const SPECS: &[Spec] = &[
    flag('c', "no-create", "c"),
    flag('o', "io-blocks", "o"),
    val('r', "reference", "r"),
    val('s', "size", "s"),
];
const HELP: &str = "Usage: truncate OPTION... FILE...\nShrink or extend the size of each FILE to the specified size\n\nA FILE argument that does not exist is created.\n\nIf a FILE is larger than the specified size, the extra data is lost.\nIf a FILE is shorter, it is extended and the sparse extended part (hole)\nreads as zero bytes.\n\n  -c, --no-create        do not create any files\n  -o, --io-blocks        treat SIZE as number of IO blocks instead of bytes\n  -r, --reference=RFILE  base size on RFILE\n  -s, --size=SIZE        set or adjust the file size by SIZE bytes\n\nSIZE may be (or may be an integer optionally followed by) one of following:\nKB 1000, K 1024, MB 1000*1000, M 1024*1024, and so on for G, T, P, E.\n\nSIZE may also be prefixed by one of the following modifying characters:\n'+' extend by, '-' reduce by, '<' at most, '>' at least,\n'/' round down to multiple of, '%' round up to multiple of.\n";

/// IO block size `-o` multiplies by (what the workspace reports in stat).
const BLOCK: u64 = 4096;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Mode {
    Set,
    Extend,
    Reduce,
    AtMost,
    AtLeast,
    RoundDown,
    RoundUp,
}

fn parse(s: &str) -> Option<(Mode, u64)> {
    let s = s.trim_start();
    let (mode, rest) = match s.chars().next()? {
        '+' => (Mode::Extend, &s[1..]),
        '-' => (Mode::Reduce, &s[1..]),
        '<' => (Mode::AtMost, &s[1..]),
        '>' => (Mode::AtLeast, &s[1..]),
        '/' => (Mode::RoundDown, &s[1..]),
        '%' => (Mode::RoundUp, &s[1..]),
        _ => (Mode::Set, s),
    };
    Some((mode, crate::num::parse_size(rest.trim_start())?))
}

fn new_size(mode: Mode, n: u64, old: u64) -> Option<u64> {
    Some(match mode {
        Mode::Set => n,
        Mode::Extend => old.checked_add(n)?,
        Mode::Reduce => old.saturating_sub(n),
        Mode::AtMost => old.min(n),
        Mode::AtLeast => old.max(n),
        Mode::RoundDown => old / n * n,
        Mode::RoundUp => old.checked_add(n - 1)? / n * n,
    })
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let (size, reference) = (p.last("s"), p.last("r"));
    if size.is_none() && reference.is_none() {
        ctx.diag.usage("you must specify either '--size' or '--reference'");
        return Ok(1);
    }
    if p.operands.is_empty() {
        ctx.diag.usage("missing file operand");
        return Ok(1);
    }
    let (mut mode, mut n) = (Mode::Set, 0);
    if let Some(s) = size {
        match parse(s) {
            Some((m, v)) => {
                mode = m;
                n = if p.has("o") { v.saturating_mul(BLOCK) } else { v };
            }
            None => {
                ctx.diag.error(format!("Invalid number: {}", lq(s)));
                return Ok(1);
            }
        }
        if n == 0 && matches!(mode, Mode::RoundDown | Mode::RoundUp) {
            ctx.diag.error("division by zero");
            return Ok(1);
        }
    }
    let ref_size = match reference {
        Some(r) => match fsx::metadata(r) {
            Ok(m) => Some(m.len()),
            Err(e) => {
                ctx.diag.error(format!("cannot stat {}: {}", q(r), reason(&e)));
                return Ok(1);
            }
        },
        None => None,
    };
    if let (Some(rs), None) = (ref_size, size) {
        n = rs;
    }
    for f in &p.operands {
        let exists = fsx::metadata(f).ok();
        if exists.is_none() && p.has("c") {
            continue;
        }
        if exists.as_ref().map_or(false, |m| m.is_dir()) {
            ctx.diag.error(format!("cannot open {} for writing: Is a directory", q(f)));
            continue;
        }
        // With both -r and -s, the adjustment applies to the reference size.
        let old = ref_size.unwrap_or_else(|| exists.as_ref().map_or(0, |m| m.len()));
        let target = match new_size(mode, n, old) {
            Some(t) => t,
            None => {
                ctx.diag.error(format!("overflow extending size of file {}", q(f)));
                continue;
            }
        };
        let res = OpenOptions::new().write(true).create(true).open(fsx::host(f)).and_then(|h| h.set_len(target));
        if let Err(e) = res {
            ctx.diag.error(format!("cannot open {} for writing: {}", q(f), reason(&e)));
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::{run, tmpdir, write};

    #[test]
    fn sizes() {
        let d = tmpdir();
        let f = format!("{}/f", d);
        // (size option, starting content length, expected length)
        let cases: &[(&str, usize, u64)] = &[
            ("10", 3, 10),
            ("2", 5, 2),
            ("+4", 3, 7),
            ("-2", 5, 3),
            ("-9", 5, 0),
            ("<3", 5, 3),
            ("<8", 5, 5),
            (">8", 5, 8),
            ("/4", 10, 8),
            ("%4", 10, 12),
            ("1K", 0, 1024),
            ("1KB", 0, 1000),
        ];
        for (size, start, want) in cases {
            write(&f, &"x".repeat(*start));
            let (c, _, e) = run("truncate", &["-s", size, &f], "");
            assert_eq!(c, 0, "{}: {}", size, e);
            assert_eq!(std::fs::metadata(&f).unwrap().len(), *want, "-s {}", size);
        }
        write(&f, "abcdef");
        run("truncate", &["-s", "3", &f], "");
        assert_eq!(std::fs::read(&f).unwrap(), b"abc");
        run("truncate", &["-s", "5", &f], "");
        assert_eq!(std::fs::read(&f).unwrap(), b"abc\0\0");
    }

    #[test]
    fn create_reference_and_errors() {
        let d = tmpdir();
        let (a, b) = (format!("{}/a", d), format!("{}/b", d));
        assert_eq!(run("truncate", &["-c", "-s", "5", &a], "").0, 0);
        assert!(std::fs::metadata(&a).is_err(), "-c creates nothing");
        write(&a, "12345678");
        assert_eq!(run("truncate", &["-r", &a, &b], "").0, 0);
        assert_eq!(std::fs::metadata(&b).unwrap().len(), 8);
        let cases: &[(&[&str], &str)] = &[
            (&["x"], "truncate: you must specify either '--size' or '--reference'\nTry 'truncate --help' for more information.\n"),
            (&["-s", "1"], "truncate: missing file operand\nTry 'truncate --help' for more information.\n"),
            (&["-s", "zz", "x"], "truncate: Invalid number: ‘zz’\n"),
        ];
        for (args, err) in cases {
            let (c, _, e) = run("truncate", args, "");
            assert_eq!((e.as_str(), c), (*err, 1), "{:?}", args);
        }
    }
}
