//! csplit [-b FORMAT] [-f PREFIX] [-k] [-n DIGITS] [-s] [-z] [--suppress-matched] FILE PATTERN...
//! as GNU coreutils 9.1: pieces of FILE into xx00, xx01, ... split before line numbers or lines
//! matching /REGEXP/[OFFSET] (%REGEXP% skips instead), {N} and {*} repeating the pattern before,
//! the size of each piece printed. The line a regexp split stopped at is not matched again.
//! On an error the pieces made so far are removed unless -k.

use crate::args::{flag, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::input;
use regex::bytes::Regex;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    val('b', "suffix-format", "b"),
    val('f', "prefix", "f"),
    flag('k', "keep-files", "k"),
    flag('\0', "suppress-matched", "suppress"),
    val('n', "digits", "n"),
    flag('s', "quiet", "s"),
    flag('q', "silent", "s"),
    flag('z', "elide-empty-files", "z"),
];

const HELP: &str = "Usage: csplit [OPTION]... FILE PATTERN...\nOutput pieces of FILE separated by PATTERN(s) to files 'xx00', 'xx01', ...,\nand output byte counts of each piece to standard output.\n\nRead standard input if FILE is -\n\nMandatory arguments to long options are mandatory for short options too.\n  -b, --suffix-format=FORMAT  use sprintf FORMAT instead of %02d\n  -f, --prefix=PREFIX        use PREFIX instead of 'xx'\n  -k, --keep-files           do not remove output files on errors\n      --suppress-matched     suppress the lines matching PATTERN\n  -n, --digits=DIGITS        use specified number of digits instead of 2\n  -s, --quiet, --silent      do not print counts of output file sizes\n  -z, --elide-empty-files    remove empty output files\n      --help        display this help and exit\n      --version     output version information and exit\n\nEach PATTERN may be:\n  INTEGER            copy up to but not including specified line number\n  /REGEXP/[OFFSET]   copy up to but not including a matching line\n  %REGEXP%[OFFSET]   skip to, but not including a matching line\n  {INTEGER}          repeat the previous pattern specified number of times\n  {*}                repeat the previous pattern as many times as possible\n\nA line OFFSET is an integer optionally preceded by '+' or '-'\n";

enum Kind {
    Line(usize),
    Re { re: Regex, offset: i64, skip: bool },
}

struct Control {
    kind: Kind,
    /// The argument as given, for messages.
    text: String,
    /// Extra repetitions: Some(n) for {n}, None for {*}.
    reps: Option<usize>,
}

/// The one printf conversion of -b FORMAT: (text before, flags+width+precision, conversion, text after).
fn suffix_format(f: &str) -> Result<(String, String, char, String), String> {
    let b: Vec<char> = f.chars().collect();
    let mut found: Option<(usize, usize)> = None;
    let mut i = 0;
    while i < b.len() {
        if b[i] != '%' {
            i += 1;
            continue;
        }
        if b.get(i + 1) == Some(&'%') {
            i += 2;
            continue;
        }
        let start = i;
        i += 1;
        while i < b.len() && "-+ #0'".contains(b[i]) {
            i += 1;
        }
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == '.') {
            i += 1;
        }
        match b.get(i) {
            Some(c) if "diuoxX".contains(*c) => {}
            Some(c) => return Err(format!("invalid conversion specifier in suffix: {}", c)),
            None => return Err("invalid conversion specifier in suffix: \\0".into()),
        }
        if found.is_some() {
            return Err("too many % conversion specifications in suffix".into());
        }
        found = Some((start, i));
        i += 1;
    }
    let (s, e) = found.ok_or("missing % conversion specification in suffix")?;
    let text = |r: &[char]| r.iter().collect::<String>().replace("%%", "%");
    Ok((text(&b[..s]), b[s + 1..e].iter().collect(), b[e], text(&b[e + 1..])))
}

fn format_suffix(spec: &(String, String, char, String), n: usize) -> String {
    let (pre, mods, conv, post) = spec;
    let left = mods.contains('-');
    let zero = mods.contains('0') && !left;
    let digits: String = mods.chars().skip_while(|c| "-+ #0'".contains(*c)).collect();
    let (width, prec) = match digits.split_once('.') {
        Some((w, p)) => (w.parse::<usize>().unwrap_or(0), Some(p.parse::<usize>().unwrap_or(0))),
        None => (digits.parse::<usize>().unwrap_or(0), None),
    };
    let mut body = match conv {
        'o' => format!("{:o}", n),
        'x' => format!("{:x}", n),
        'X' => format!("{:X}", n),
        _ => n.to_string(),
    };
    if let Some(p) = prec {
        if body.len() < p {
            body = format!("{}{}", "0".repeat(p - body.len()), body);
        }
    }
    if mods.contains('#') && n != 0 {
        body = match conv {
            'o' => format!("0{}", body),
            'x' => format!("0x{}", body),
            'X' => format!("0X{}", body),
            _ => body,
        };
    }
    if mods.contains('+') && "di".contains(*conv) {
        body = format!("+{}", body);
    }
    let pad = width.saturating_sub(body.chars().count());
    let body = if left {
        format!("{}{}", body, " ".repeat(pad))
    } else if zero && prec.is_none() {
        format!("{}{}", "0".repeat(pad), body)
    } else {
        format!("{}{}", " ".repeat(pad), body)
    };
    format!("{}{}{}", pre, body, post)
}

fn parse_controls(ctx: &mut Ctx, pats: &[String]) -> Result<Vec<Control>, ()> {
    let mut out: Vec<Control> = Vec::new();
    let mut last_line = 0usize;
    for p in pats {
        if let Some(rest) = p.strip_prefix('{') {
            let inner = rest.strip_suffix('}');
            let prev = match out.last_mut() {
                Some(c) => c,
                None => {
                    ctx.diag.error(format!("{}: invalid pattern", lq(p)));
                    return Err(());
                }
            };
            match inner {
                Some("*") => prev.reps = None,
                Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => prev.reps = Some(n.parse().unwrap_or(usize::MAX)),
                _ => {
                    ctx.diag.error(format!("{}}}: integer required between '{{' and '}}'", lq(p.trim_end_matches('}'))));
                    return Err(());
                }
            }
            continue;
        }
        if p.starts_with('/') || p.starts_with('%') {
            let delim = p.chars().next().unwrap();
            let close = match p[1..].rfind(delim) {
                Some(i) => i + 1,
                None => {
                    ctx.diag.error(format!("{}: closing delimiter '{}' missing", p, delim));
                    return Err(());
                }
            };
            let off = &p[close + 1..];
            let offset = if off.is_empty() {
                0
            } else {
                match off.strip_prefix('+').unwrap_or(off).parse::<i64>() {
                    Ok(n) if !off.starts_with("+-") && !off.starts_with("++") => n,
                    _ => {
                        ctx.diag.error(format!("{}: integer expected after delimiter", lq(p)));
                        return Err(());
                    }
                }
            };
            let re = match crate::regex_posix::translate(&p[1..close], false).map_err(|m| m).and_then(|t| Regex::new(&t).map_err(|e| e.to_string())) {
                Ok(r) => r,
                Err(m) => {
                    ctx.diag.error(format!("{}: {}", lq(&p[1..close]), m));
                    return Err(());
                }
            };
            out.push(Control { kind: Kind::Re { re, offset, skip: delim == '%' }, text: p.clone(), reps: Some(0) });
            continue;
        }
        match p.parse::<usize>() {
            Ok(0) => {
                ctx.diag.error(format!("{}: line number must be greater than zero", p));
                return Err(());
            }
            Ok(n) if p.bytes().all(|b| b.is_ascii_digit()) => {
                if n < last_line {
                    ctx.diag.error(format!("line number {} is smaller than preceding line number, {}", lq(p), last_line));
                    return Err(());
                }
                if n == last_line {
                    let _ = writeln!(ctx.diag.raw(), "csplit: warning: line number {} is the same as preceding line number", lq(p));
                }
                last_line = n;
                out.push(Control { kind: Kind::Line(n), text: p.clone(), reps: Some(0) });
            }
            _ => {
                ctx.diag.error(format!("{}: invalid pattern", lq(p)));
                return Err(());
            }
        }
    }
    Ok(out)
}

struct Writer<'s> {
    prefix: String,
    suffix: Box<dyn Fn(usize) -> String + 's>,
    made: Vec<String>,
    elide: bool,
    silent: bool,
    /// The sizes printed: stdout is a pipe or file here, which GNU's stdio writes out at exit,
    /// after any error message.
    sizes: String,
}

impl Writer<'_> {
    /// Writes one piece (unless -z and it is empty) and prints its size.
    fn piece(&mut self, lines: &[&[u8]]) -> Result<(), String> {
        let size: usize = lines.iter().map(|l| l.len()).sum();
        if size == 0 && self.elide {
            return Ok(());
        }
        let name = format!("{}{}", self.prefix, (self.suffix)(self.made.len()));
        let mut data = Vec::with_capacity(size);
        for l in lines {
            data.extend_from_slice(l);
        }
        std::fs::write(crate::fsx::host(&name), &data).map_err(|e| format!("{}: {}", q(&name), reason(&e)))?;
        self.made.push(name);
        if !self.silent {
            self.sizes.push_str(&format!("{}\n", size));
        }
        Ok(())
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let ops = &p.operands;
    if ops.len() < 2 {
        match ops.first() {
            Some(f) => ctx.diag.usage(format!("missing operand after {}", lq(f))),
            None => ctx.diag.usage("missing operand"),
        }
        return Ok(1);
    }
    let digits = match p.last("n") {
        Some(n) => match n.parse::<usize>() {
            Ok(d) => d,
            Err(_) => {
                ctx.diag.error(format!("invalid number: {}", lq(n)));
                return Ok(1);
            }
        },
        None => 2,
    };
    let suffix: Box<dyn Fn(usize) -> String> = match p.last("b") {
        Some(f) => match suffix_format(f) {
            Ok(spec) => Box::new(move |n| format_suffix(&spec, n)),
            Err(m) => {
                ctx.diag.error(m);
                return Ok(1);
            }
        },
        None => Box::new(move |n| format!("{:0width$}", n, width = digits)),
    };
    let controls = match parse_controls(ctx, &ops[1..]) {
        Ok(c) => c,
        Err(()) => return Ok(1),
    };
    let mut data = Vec::new();
    if let Err(e) = input::open(ctx.stdin, &ops[0]).and_then(|mut r| r.read_to_end(&mut data)) {
        ctx.diag.error(format!("cannot open {} for reading: {}", q(&ops[0]), reason(&e)));
        return Ok(1);
    }
    let lines: Vec<&[u8]> = data.split_inclusive(|b| *b == b'\n').collect();
    let mut w = Writer { prefix: p.last("f").unwrap_or("xx").to_string(), suffix, made: Vec::new(), elide: p.has("z"), silent: p.has("s"), sizes: String::new() };
    let failed = split(&controls, &lines, &mut w, p.has("suppress"));
    let code = match failed {
        Ok(()) => 0,
        Err(m) => {
            ctx.diag.error(m);
            if !p.has("k") {
                for f in &w.made {
                    let _ = std::fs::remove_file(crate::fsx::host(f));
                }
            }
            1
        }
    };
    ctx.out.write_all(w.sizes.as_bytes())?;
    Ok(code)
}

fn split(controls: &[Control], lines: &[&[u8]], w: &mut Writer, suppress: bool) -> Result<(), String> {
    let total = lines.len();
    // The first line not yet written or skipped (0-based), and whether a regexp split stopped
    // there (then the next search starts after it, as GNU's current_line does).
    let mut start = 0usize;
    let mut after_match = false;
    for c in controls {
        let mut rep = 0usize;
        loop {
            let on_rep = if rep > 0 { format!(" on repetition {}", rep) } else { String::new() };
            match &c.kind {
                Kind::Line(n) => {
                    let target = n * (rep + 1);
                    if target > total || target - 1 < start {
                        // Out of range: what is left becomes the piece, then the error.
                        w.piece(&lines[start.min(total)..])?;
                        return Err(format!("{}: line number out of range{}", lq(&c.text), on_rep));
                    }
                    w.piece(&lines[start..target - 1])?;
                    start = target - 1;
                    if suppress && start < total {
                        start += 1;
                    }
                    after_match = false;
                }
                Kind::Re { re, offset, skip } => {
                    let from = (start + usize::from(after_match)).min(total);
                    let found = lines[from..].iter().position(|l| re.is_match(l.strip_suffix(b"\n").unwrap_or(l))).map(|i| i + from);
                    let m = match found {
                        Some(m) => m,
                        None if c.reps.is_none() => break,
                        None => {
                            if !skip {
                                w.piece(&lines[start..])?;
                            }
                            return Err(format!("{}: match not found{}", lq(&c.text), on_rep));
                        }
                    };
                    let b = m as i64 + offset;
                    if b < start as i64 || b > total as i64 {
                        if !skip {
                            w.piece(&[])?;
                        }
                        return Err(format!("{}: line number out of range{}", lq(&c.text), on_rep));
                    }
                    let b = b as usize;
                    if !skip {
                        w.piece(&lines[start..b])?;
                    }
                    start = b;
                    after_match = true;
                    if suppress && *offset == 0 && start < total {
                        start += 1;
                        after_match = false;
                    }
                }
            }
            rep += 1;
            if c.reps.map_or(false, |n| rep > n) {
                break;
            }
        }
    }
    w.piece(&lines[start.min(total)..])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::testutil::*;

    fn pieces(dir: &str) -> String {
        let mut names: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).filter(|n| n != "s").collect();
        names.sort();
        names.iter().map(|n| format!("{}: {}", n, read(&format!("{}/{}", dir, n)).replace('\n', " "))).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn splits_as_gnu() {
        let seq: String = (1..=10).map(|i| format!("{}\n", i)).collect();
        let d = tmpdir();
        let s = format!("{}/s", d);
        write(&s, &seq);
        let x = format!("{}/xx", d);
        check("csplit", &["-f", &x, &s, "3", "{2}"], "", "4\n6\n6\n5\n", 0);
        assert_eq!(pieces(&d), "xx00: 1 2 \nxx01: 3 4 5 \nxx02: 6 7 8 \nxx03: 9 10 ");
        let d = tmpdir();
        let x = format!("{}/xx", d);
        check("csplit", &["-f", &x, &s, "/3/+1", "%7%", "/9/-1"], "", "6\n2\n7\n", 0);
        let (code, out, err) = run("csplit", &["-f", &x, &s, "/5/", "/5/"], "");
        assert_eq!((code, out.as_str(), err.as_str()), (1, "8\n13\n", format!("csplit: {}: match not found\n", crate::ctx::lq("/5/")).as_str()));
        check_err("csplit", &[&s, "5", "3"], "", &format!("csplit: line number {} is smaller than preceding line number, 5\n", crate::ctx::lq("3")), 1);
        let d = tmpdir();
        let x = format!("{}/p", d);
        check("csplit", &["-z", "-b", "%03d.txt", "-f", &x, &s, "/1/", "{*}"], "", "18\n3\n", 0);
        assert_eq!(pieces(&d), "p000.txt: 1 2 3 4 5 6 7 8 9 \np001.txt: 10 ");
    }
}
