//! split [-l N | -b SIZE | -n CHUNKS] [-d] [-a LEN] [--additional-suffix=S]
//! [FILE [PREFIX]] — writes PREFIXaa, PREFIXab, ... (or 00, 01 with -d).

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::input;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    val('l', "lines", "l"),
    val('b', "bytes", "b"),
    val('C', "line-bytes", "C"),
    val('n', "number", "n"),
    val('t', "separator", "t"),
    flag('d', "", "d"),
    optval('\0', "numeric-suffixes", "d"),
    flag('x', "", "x"),
    optval('\0', "hex-suffixes", "x"),
    val('a', "suffix-length", "a"),
    val('\0', "additional-suffix", "add"),
    flag('\0', "verbose", "v"),
    flag('e', "elide-empty-files", "e"),
    // Output is written whole here; -u only matters for a reader of a pipe.
    flag('u', "unbuffered", "-"),
    val('\0', "filter", "filter"),
];
const HELP: &str = "Usage: split [OPTION]... [FILE [PREFIX]]\nOutput pieces of FILE to PREFIXaa, PREFIXab, ...;\ndefault size is 1000 lines, and default PREFIX is 'x'.\n\n  -a, --suffix-length=N   generate suffixes of length N (default 2)\n      --additional-suffix=SUFFIX  append an additional SUFFIX to file names\n  -b, --bytes=SIZE        put SIZE bytes per output file\n  -C, --line-bytes=SIZE   put at most SIZE bytes of records per output file\n  -d                      use numeric suffixes starting at 0, not alphabetic\n      --numeric-suffixes[=FROM]  same as -d, but allow setting the start value\n  -x                      use hex suffixes starting at 0, not alphabetic\n      --hex-suffixes[=FROM]  same as -x, but allow setting the start value\n  -e, --elide-empty-files  do not generate empty output files with '-n'\n  -l, --lines=NUMBER      put NUMBER lines/records per output file\n  -n, --number=CHUNKS     generate CHUNKS output files: N, K/N, l/N, l/K/N, r/N, r/K/N\n  -t, --separator=SEP     use SEP instead of newline as the record separator\n  -u, --unbuffered        accepted (output is written whole)\n      --verbose           print a diagnostic just before each output file is opened\n\n--filter is not supported here (no commands can run).\n";

/// `-n` CHUNKS: N, K/N, l/N, l/K/N, r/N, r/K/N (K: print only chunk K to stdout).
struct Chunks {
    kind: u8,
    k: Option<usize>,
    n: usize,
}

fn parse_chunks(v: &str) -> Option<Chunks> {
    let (kind, rest) = match v.split_once('/') {
        Some(("l", r)) => (b'l', r),
        Some(("r", r)) => (b'r', r),
        _ => (b'b', v),
    };
    let nums: Vec<usize> = rest.split('/').map(|x| x.parse().ok()).collect::<Option<_>>()?;
    let (k, n) = match nums[..] {
        [n] => (None, n),
        [k, n] if k >= 1 && k <= n => (Some(k), n),
        _ => return None,
    };
    (n > 0).then_some(Chunks { kind, k, n })
}

/// Byte ranges GNU gives each `-n` chunk: N splits bytes (the last chunk takes the rest),
/// l/N ends chunk k at the first record end at or after byte k*size/N - 1.
fn chunk_ranges(data: &[u8], c: &Chunks, sep: u8) -> Vec<Vec<u8>> {
    let (len, n) = (data.len(), c.n);
    let mut out = Vec::new();
    match c.kind {
        b'r' => {
            out = vec![Vec::new(); n];
            for (i, rec) in records(data, sep).into_iter().enumerate() {
                out[i % n].extend_from_slice(rec);
            }
        }
        b'l' => {
            let size = (len / n).max(1);
            let mut pos = 0;
            for k in 1..=n {
                let end = if k == n {
                    len
                } else {
                    let target = (k * size).saturating_sub(1);
                    if pos > target {
                        pos
                    } else {
                        data[target.max(pos).min(len)..].iter().position(|&b| b == sep).map_or(len, |i| target.max(pos) + i + 1)
                    }
                };
                out.push(data[pos..end].to_vec());
                pos = end;
            }
        }
        _ => {
            // Every chunk gets size/N bytes (at least one while bytes last); the last one the rest.
            let size = (len / n).max(1);
            for k in 0..n {
                let start = (k * size).min(len);
                let end = if k + 1 == n { len } else { ((k + 1) * size).min(len) };
                out.push(data[start..end].to_vec());
            }
        }
    }
    out
}

/// Records ending in `sep` (the last one may lack it).
fn records(data: &[u8], sep: u8) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &c) in data.iter().enumerate() {
        if c == sep {
            out.push(&data[start..=i]);
            start = i + 1;
        }
    }
    if start < data.len() {
        out.push(&data[start..]);
    }
    out
}

/// -C: as many whole records as fit in `max` bytes; a longer record is cut into `max`-byte pieces.
fn line_bytes(data: &[u8], max: usize, sep: u8) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut cur: Vec<u8> = Vec::new();
    for rec in records(data, sep) {
        if cur.len() + rec.len() > max && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        if rec.len() > max {
            let mut parts = rec.chunks(max).peekable();
            while let Some(part) = parts.next() {
                if parts.peek().is_some() {
                    out.push(part.to_vec());
                } else {
                    cur.extend_from_slice(part);
                }
            }
        } else {
            cur.extend_from_slice(rec);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

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
    let modes = ["l", "b", "C", "n"].iter().filter(|k| p.has(k)).count();
    if modes > 1 {
        ctx.diag.usage("cannot split in more than one way");
        return Ok(1);
    }
    let name = p.operands.first().cloned().unwrap_or_else(|| "-".into());
    let prefix = p.operands.get(1).cloned().unwrap_or_else(|| "x".into());
    let len = match p.last("a").map(|a| a.parse::<usize>()) {
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            ctx.diag.error(format!("invalid suffix length: {}", lq(p.last("a").unwrap())));
            return Ok(1);
        }
        None => 2,
    };
    if p.has("filter") {
        ctx.diag.error("--filter is not supported here (no commands can run in this sandbox); split to files and read them instead");
        return Ok(1);
    }
    let digits: &[u8] = match p.opts.iter().rev().find(|o| o.key == "d" || o.key == "x").map(|o| o.key) {
        Some("d") => b"0123456789",
        Some("x") => b"0123456789abcdef",
        _ => b"abcdefghijklmnopqrstuvwxyz",
    };
    let from_key = if digits.len() == 10 { "d" } else { "x" };
    let first = match p.last(from_key) {
        None => 0,
        Some(v) => match usize::from_str_radix(v, 10) {
            Ok(n) => n,
            Err(_) => {
                ctx.diag.error(format!("invalid start value for numerical suffix: {}", lq(v)));
                return Ok(1);
            }
        },
    };
    let sep = match p.last("t") {
        None => b'\n',
        Some("\\0") => 0,
        Some(t) if t.len() == 1 => t.as_bytes()[0],
        Some(t) => {
            ctx.diag.error(format!("multi-character separator {}", q(t)));
            return Ok(1);
        }
    };
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
                _ => Err(format!("invalid number of {}: {}", what, lq(v))),
            },
        }
    };
    let (l, b, cb) = match (size_of("l", "lines"), size_of("b", "bytes"), size_of("C", "bytes")) {
        (Ok(l), Ok(b), Ok(c)) => (l, b, c),
        (Err(m), _, _) | (_, Err(m), _) | (_, _, Err(m)) => {
            ctx.diag.error(m);
            return Ok(1);
        }
    };
    let chunks = match p.last("n") {
        None => None,
        Some(v) => match parse_chunks(v) {
            Some(c) => Some(c),
            None => {
                ctx.diag.error(format!("invalid number of chunks: {}", lq(v)));
                return Ok(1);
            }
        },
    };
    let pieces: Vec<Vec<u8>> = if let Some(b) = b {
        data.chunks(b as usize).map(<[u8]>::to_vec).collect()
    } else if let Some(c) = cb {
        line_bytes(&data, c as usize, sep)
    } else if let Some(c) = chunks {
        let all = chunk_ranges(&data, &c, sep);
        if let Some(k) = c.k {
            ctx.out.write_all(&all[k - 1])?;
            return Ok(0);
        }
        all.into_iter().filter(|piece| !(p.has("e") && piece.is_empty())).collect()
    } else {
        let l = l.unwrap_or(1000) as usize;
        records(&data, sep).chunks(l).map(|g| g.concat()).collect()
    };
    for (i, piece) in pieces.iter().enumerate() {
        let suf = match suffix(first + i, len, digits) {
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
