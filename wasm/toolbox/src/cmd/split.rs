//! split [-l N | -b SIZE | -n CHUNKS] [-d] [-a LEN] [--additional-suffix=S]
//! [FILE [PREFIX]] — writes PREFIXaa, PREFIXab, ... (or 00, 01 with -d).

use crate::args::{flag, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::input;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    val('l', "lines", "l"),
    val('b', "bytes", "b"),
    val('n', "number", "n"),
    flag('d', "numeric-suffixes", "d"),
    flag('x', "hex-suffixes", "x"),
    val('a', "suffix-length", "a"),
    val('\0', "additional-suffix", "add"),
    flag('\0', "verbose", "v"),
    flag('e', "elide-empty-files", "e"),
];
const HELP: &str = "Usage: split [OPTION]... [FILE [PREFIX]]\nOutput pieces of FILE to PREFIXaa, PREFIXab, ...;\ndefault size is 1000 lines, and default PREFIX is 'x'.\n\n  -a, --suffix-length=N   generate suffixes of length N (default 2)\n      --additional-suffix=SUFFIX  append an additional SUFFIX to file names\n  -b, --bytes=SIZE        put SIZE bytes per output file\n  -d                      use numeric suffixes starting at 0, not alphabetic\n  -x                      use hex suffixes starting at 0, not alphabetic\n  -e, --elide-empty-files  do not generate empty output files with '-n'\n  -l, --lines=NUMBER      put NUMBER lines/records per output file\n  -n, --number=CHUNKS     generate CHUNKS output files\n      --verbose           print a diagnostic just before each output file is opened\n";

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
    let modes = ["l", "b", "n"].iter().filter(|k| p.has(k)).count();
    if modes > 1 {
        ctx.diag.usage("cannot split in more than one way");
        return Ok(1);
    }
    let name = p.operands.first().cloned().unwrap_or_else(|| "-".into());
    let prefix = p.operands.get(1).cloned().unwrap_or_else(|| "x".into());
    let len = match p.last("a").map(|a| a.parse::<usize>()) {
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            ctx.diag.error(format!("invalid suffix length: {}", q(p.last("a").unwrap())));
            return Ok(1);
        }
        None => 2,
    };
    let digits: &[u8] = if p.has("d") { b"0123456789" } else if p.has("x") { b"0123456789abcdef" } else { b"abcdefghijklmnopqrstuvwxyz" };
    let add = p.last("add").unwrap_or("").to_string();
    let mut data = Vec::new();
    if let Err(e) = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_end(&mut data)) {
        ctx.diag.error(format!("cannot open {} for reading: {}", q(&name), reason(&e)));
        return Ok(1);
    }
    let size_of = |k: &str, what: &str| -> Result<Option<u64>, String> {
        match p.last(k) {
            None => Ok(None),
            Some(v) => match crate::num::parse_size(v) {
                Some(n) if n > 0 => Ok(Some(n)),
                _ => Err(format!("invalid number of {}: {}", what, q(v))),
            },
        }
    };
    let mut pieces: Vec<&[u8]> = Vec::new();
    let (l, b, n) = match (size_of("l", "lines"), size_of("b", "bytes"), size_of("n", "chunks")) {
        (Ok(l), Ok(b), Ok(n)) => (l, b, n),
        (Err(m), _, _) | (_, Err(m), _) | (_, _, Err(m)) => {
            ctx.diag.error(m);
            return Ok(1);
        }
    };
    if let Some(b) = b {
        pieces.extend(data.chunks(b as usize));
    } else if let Some(n) = n {
        let n = n as usize;
        let per = data.len() / n;
        let mut start = 0;
        for i in 0..n {
            let end = if i == n - 1 { data.len() } else { start + per };
            let piece = &data[start..end];
            if !(p.has("e") && piece.is_empty()) {
                pieces.push(piece);
            }
            start = end;
        }
    } else {
        let l = l.unwrap_or(1000) as usize;
        let mut start = 0;
        let mut count = 0;
        for (i, c) in data.iter().enumerate() {
            if *c == b'\n' {
                count += 1;
                if count == l {
                    pieces.push(&data[start..=i]);
                    start = i + 1;
                    count = 0;
                }
            }
        }
        if start < data.len() {
            pieces.push(&data[start..]);
        }
    }
    for (i, piece) in pieces.iter().enumerate() {
        let suf = match suffix(i, len, digits) {
            Some(s) => s,
            None => {
                ctx.diag.error("output file suffixes exhausted");
                return Ok(1);
            }
        };
        let out = format!("{}{}{}", prefix, suf, add);
        if p.has("v") {
            writeln!(ctx.out, "creating file {}", q(&out))?;
        }
        if let Err(e) = std::fs::write(crate::fsx::host(&out), piece) {
            ctx.diag.error(format!("{}: {}", out, reason(&e)));
            return Ok(1);
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, read, tmpdir};

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
}
