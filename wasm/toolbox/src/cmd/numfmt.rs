//! numfmt [--from=UNIT] [--to=UNIT] [--suffix=S] [--padding=N] [--field=F]
//! [--format=FMT] [--round=R] [--invalid=MODE] [-d X] [--header[=N]] [NUMBER]...
//! — reads and writes numbers with SI (K=1000) or IEC (K=1024, or Ki with
//! iec-i) suffixes, as GNU coreutils does.

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{lq, q, Ctx, Res};
use crate::input;
use std::io::Write;

const SPECS: &[Spec] = &[
    val('\0', "from", "from"),
    val('\0', "to", "to"),
    val('\0', "from-unit", "from-unit"),
    val('\0', "to-unit", "to-unit"),
    val('\0', "suffix", "suffix"),
    val('\0', "padding", "padding"),
    val('\0', "field", "field"),
    val('\0', "format", "format"),
    val('\0', "round", "round"),
    val('\0', "invalid", "invalid"),
    val('d', "delimiter", "d"),
    optval('\0', "header", "header"),
    flag('\0', "grouping", "grouping"),
    flag('\0', "debug", "debug"),
    flag('z', "zero-terminated", "z"),
];
const HELP: &str = "Usage: numfmt [OPTION]... [NUMBER]...\nReformat NUMBER(s), or the numbers from standard input if none are specified.\n\n      --debug          print warnings about invalid input\n  -d, --delimiter=X    use X instead of whitespace for field delimiter\n      --field=FIELDS   replace the numbers in these input fields (default=1)\n      --format=FORMAT  use printf style floating-point FORMAT\n      --from=UNIT      auto-scale input numbers to UNITs; default is 'none'\n      --from-unit=N    specify the input unit size (instead of the default 1)\n      --grouping       use locale-defined grouping of digits (none in C)\n      --header[=N]     print (without converting) the first N header lines\n      --invalid=MODE   failure mode for invalid numbers: abort (default),\n                         fail, warn, ignore\n      --padding=N      pad the output to N characters; positive N will\n                         right-align; negative N will left-align\n      --round=METHOD   up, down, from-zero (default), towards-zero, nearest\n      --suffix=SUFFIX  add SUFFIX to output numbers, and accept optional\n                         SUFFIX in input numbers\n      --to=UNIT        auto-scale output numbers to UNITs\n      --to-unit=N      the output unit size (instead of the default 1)\n  -z, --zero-terminated    line delimiter is NUL, not newline\n\nUNIT options:\n  none       no auto-scaling is done; suffixes will trigger an error\n  auto       accept optional single/two letter suffix: 1K = 1000, 1Ki = 1024\n  si         1K = 1000, 1M = 1000000, ...\n  iec        1K = 1024, 1M = 1048576, ...\n  iec-i      1Ki = 1024, 1Mi = 1048576, ...\n";

const LETTERS: &[char] = &['K', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y', 'R', 'Q'];

#[derive(Clone, Copy, PartialEq)]
enum Unit {
    None,
    Auto,
    Si,
    Iec,
    IecI,
}

#[derive(Clone, Copy, PartialEq)]
enum Round {
    Up,
    Down,
    FromZero,
    TowardsZero,
    Nearest,
}

struct Fmt {
    prefix: String,
    suffix: String,
    width: usize,
    left: bool,
    zero: bool,
    precision: Option<usize>,
}

struct Opts {
    from: Unit,
    to: Unit,
    from_unit: f64,
    to_unit: f64,
    suffix: String,
    padding: i64,
    round: Round,
    fmt: Fmt,
}

fn unit(s: &str, allow_auto: bool) -> Option<Unit> {
    Some(match s {
        "none" => Unit::None,
        "auto" if allow_auto => Unit::Auto,
        "si" => Unit::Si,
        "iec" => Unit::Iec,
        "iec-i" => Unit::IecI,
        _ => return None,
    })
}

fn parse_format(f: &str) -> Result<Fmt, String> {
    let bad = || format!("invalid format {}, directive must be %[0]['][-][N][.][N]f", lq(f));
    let i = f.find('%').ok_or_else(|| format!("format {} has no % directive", q(f)))?;
    let mut j = i + 1;
    let b = f.as_bytes();
    let (mut left, mut zero) = (false, false);
    while j < b.len() && b"-0'".contains(&b[j]) {
        left |= b[j] == b'-';
        zero |= b[j] == b'0';
        j += 1;
    }
    let ws = j;
    while j < b.len() && b[j].is_ascii_digit() {
        j += 1;
    }
    let width = f[ws..j].parse().unwrap_or(0);
    let mut precision = None;
    if j < b.len() && b[j] == b'.' {
        j += 1;
        let ps = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        precision = Some(f[ps..j].parse().unwrap_or(0));
    }
    if b.get(j) != Some(&b'f') {
        return Err(bad());
    }
    let suffix = f[j + 1..].to_string();
    if suffix.contains('%') && !suffix.contains("%%") {
        return Err(format!("format {} has too many % directives", q(f)));
    }
    Ok(Fmt { prefix: f[..i].replace("%%", "%"), suffix: suffix.replace("%%", "%"), width, left, zero, precision })
}

/// Parses one input number: (value, decimals shown in the input).
fn read_number(s: &str, o: &Opts) -> Result<(f64, usize), String> {
    let t = s.strip_suffix(o.suffix.as_str()).filter(|_| !o.suffix.is_empty()).unwrap_or(s);
    let end = t.char_indices().find(|&(i, c)| !(c.is_ascii_digit() || c == '.' || (i == 0 && (c == '-' || c == '+')))).map(|(i, _)| i).unwrap_or(t.len());
    let (num, rest) = t.split_at(end);
    let v: f64 = match num.parse() {
        Ok(v) if num.bytes().any(|c| c.is_ascii_digit()) => v,
        _ => return Err(format!("invalid number: {}", lq(s))),
    };
    let decimals = num.find('.').map(|i| num.len() - i - 1).unwrap_or(0);
    if rest.is_empty() {
        return Ok((v * o.from_unit, decimals));
    }
    let mut cs = rest.chars();
    let letter = cs.next().unwrap_or(' ');
    let power = match LETTERS.iter().position(|&l| l == letter) {
        Some(p) => p as i32 + 1,
        None => return Err(format!("invalid suffix in input: {}", lq(s))),
    };
    let i = cs.as_str();
    let base = match (o.from, i) {
        (Unit::None, _) => return Err(format!("rejecting suffix in input: {} (consider using --from)", q(s))),
        (Unit::Si, "") | (Unit::Auto, "") => 1000f64,
        (Unit::Iec, "") | (Unit::IecI, "i") | (Unit::Auto, "i") => 1024f64,
        (Unit::IecI, "") => return Err(format!("missing 'i' suffix in input: {} (e.g. Ki/Mi/Gi)", q(s))),
        _ => return Err(format!("invalid suffix in input: {}", lq(s))),
    };
    Ok((v * base.powi(power) * o.from_unit, 0))
}

fn round(v: f64, digits: usize, r: Round) -> f64 {
    let m = 10f64.powi(digits as i32);
    let x = v * m;
    // Guard against 1.2 * 10 = 11.999999999999998.
    let x = if (x - x.round()).abs() < 1e-9 { x.round() } else { x };
    let y = match r {
        Round::Up => x.ceil(),
        Round::Down => x.floor(),
        Round::FromZero => if x < 0.0 { x.floor() } else { x.ceil() },
        Round::TowardsZero => x.trunc(),
        Round::Nearest => x.round(),
    };
    y / m
}

/// One number in the output unit, before padding.
fn render(v: f64, decimals: usize, o: &Opts) -> String {
    let v = v / o.to_unit;
    let (body, letter) = if o.to == Unit::None {
        let p = o.fmt.precision.unwrap_or(decimals);
        (format!("{:.*}", p, round(v, p, o.round)), String::new())
    } else {
        let base = if o.to == Unit::Si { 1000f64 } else { 1024f64 };
        let mut power = 0;
        let mut x = v;
        while x.abs() >= base && power < LETTERS.len() {
            x /= base;
            power += 1;
        }
        let mut p = o.fmt.precision.unwrap_or(if power > 0 && x.abs() < 10.0 { 1 } else { 0 });
        let mut r = round(x, p, o.round);
        if r.abs() >= base && power < LETTERS.len() {
            power += 1;
            r = round(x / base, 1, o.round);
            p = o.fmt.precision.unwrap_or(1);
        } else if o.fmt.precision.is_none() && p == 1 && r.abs() >= 10.0 {
            p = 0;
        }
        let letter = if power == 0 { String::new() } else { format!("{}{}", LETTERS[power - 1], if o.to == Unit::IecI { "i" } else { "" }) };
        (format!("{:.*}", p, r), letter)
    };
    let f = &o.fmt;
    let mut num = body;
    if f.zero && !f.left && num.len() < f.width {
        // GNU zero-pads the number itself to the width, then adds the unit.
        let (sign, digits) = match num.strip_prefix('-') {
            Some(d) => ("-", d.to_string()),
            None => ("", num.clone()),
        };
        num = format!("{}{}{}{}", sign, "0".repeat(f.width - num.len()), digits, letter);
    } else {
        num.push_str(&letter);
        if num.len() < f.width {
            num = if f.left { format!("{:<w$}", num, w = f.width) } else { format!("{:>w$}", num, w = f.width) };
        }
    }
    let out = format!("{}{}{}{}", f.prefix, num, o.suffix, f.suffix);
    let w = o.padding.unsigned_abs() as usize;
    if out.len() >= w {
        out
    } else if o.padding < 0 {
        format!("{:<w$}", out, w = w)
    } else {
        format!("{:>w$}", out, w = w)
    }
}

/// Field selection: "2", "1,3", "2-", "-3", "1-2,4", "-" (all).
fn field_set(spec: &str) -> Option<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    for part in spec.split(',') {
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (if a.is_empty() { 1 } else { a.parse().ok()? }, if b.is_empty() { usize::MAX } else { b.parse().ok()? }),
            None => {
                let n = part.parse().ok()?;
                (n, n)
            }
        };
        if a == 0 || b < a {
            return None;
        }
        out.push((a, b));
    }
    Some(out)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let mut o = Opts { from: Unit::None, to: Unit::None, from_unit: 1.0, to_unit: 1.0, suffix: p.last("suffix").unwrap_or("").to_string(), padding: 0, round: Round::FromZero, fmt: Fmt { prefix: String::new(), suffix: String::new(), width: 0, left: false, zero: false, precision: None } };
    macro_rules! bad_arg {
        ($v:expr, $opt:expr, $valid:expr) => {{
            let list: String = $valid.iter().map(|x: &&str| format!("\n  - '{}'", x)).collect();
            ctx.diag.usage(format!("invalid argument {} for '--{}'\nValid arguments are:{}", lq($v), $opt, list));
            return Ok(1);
        }};
    }
    if let Some(v) = p.last("from") {
        o.from = match unit(v, true) { Some(u) => u, None => bad_arg!(v, "from", ["none", "auto", "si", "iec", "iec-i"]) };
    }
    if let Some(v) = p.last("to") {
        o.to = match unit(v, false) { Some(u) => u, None => bad_arg!(v, "to", ["none", "si", "iec", "iec-i"]) };
    }
    for (key, slot) in [("from-unit", &mut o.from_unit), ("to-unit", &mut o.to_unit)] {
        if let Some(v) = p.last(key) {
            match crate::num::parse_size(v) {
                Some(n) if n > 0 => *slot = n as f64,
                _ => {
                    ctx.diag.error(format!("invalid unit size: {}", lq(v)));
                    return Ok(1);
                }
            }
        }
    }
    if let Some(v) = p.last("padding") {
        o.padding = match v.parse::<i64>() {
            Ok(n) if n != 0 => n,
            _ => {
                ctx.diag.error(format!("invalid padding value {}", lq(v)));
                return Ok(1);
            }
        };
    }
    if let Some(v) = p.last("round") {
        o.round = match v {
            "up" => Round::Up,
            "down" => Round::Down,
            "from-zero" => Round::FromZero,
            "towards-zero" => Round::TowardsZero,
            "nearest" => Round::Nearest,
            _ => bad_arg!(v, "round", ["up", "down", "from-zero", "towards-zero", "nearest"]),
        };
    }
    if let Some(v) = p.last("format") {
        match parse_format(v) {
            Ok(f) => o.fmt = f,
            Err(m) => {
                ctx.diag.error(m);
                return Ok(1);
            }
        }
    }
    let invalid = p.last("invalid").unwrap_or("abort");
    if !["abort", "fail", "warn", "ignore"].contains(&invalid) {
        bad_arg!(invalid, "invalid", ["abort", "fail", "warn", "ignore"]);
    }
    let fields = match p.last("field").map(field_set) {
        Some(Some(f)) => f,
        Some(None) => {
            ctx.diag.error(format!("invalid field value {}", lq(p.last("field").unwrap_or(""))));
            return Ok(1);
        }
        None => vec![(1, 1)],
    };
    let delim = p.last("d").map(|d| d.to_string());
    if delim.as_ref().map_or(false, |d| d.chars().count() != 1) {
        ctx.diag.error("the delimiter must be a single character");
        return Ok(1);
    }
    let mut failed = false;
    // Converts one line; None when it must abort.
    let mut line_out = |ctx: &mut Ctx, line: &str| -> Option<String> {
        let mut pieces: Vec<(String, String)> = Vec::new(); // (leading text, field)
        match &delim {
            Some(d) => pieces.extend(line.split(d.as_str()).map(|f| (String::new(), f.to_string()))),
            None => {
                let mut rest = line;
                while !rest.is_empty() {
                    let lead = rest.len() - rest.trim_start_matches(|c| c == ' ' || c == '\t').len();
                    let body_end = rest[lead..].find(|c| c == ' ' || c == '\t').map(|i| lead + i).unwrap_or(rest.len());
                    pieces.push((rest[..lead].to_string(), rest[lead..body_end].to_string()));
                    rest = &rest[body_end..];
                }
            }
        }
        let mut out = String::new();
        for (i, (lead, field)) in pieces.iter().enumerate() {
            if i > 0 {
                if let Some(d) = &delim {
                    out.push_str(d);
                }
            }
            out.push_str(lead);
            let n = i + 1;
            if !fields.iter().any(|&(a, b)| n >= a && n <= b) {
                out.push_str(field);
                continue;
            }
            match read_number(field, &o) {
                Ok((v, d)) => out.push_str(&render(v, d, &o)),
                Err(m) => {
                    if invalid != "ignore" {
                        ctx.diag.warn(&m);
                    }
                    if invalid == "abort" {
                        return None;
                    }
                    failed |= invalid == "fail";
                    out.push_str(field);
                }
            }
        }
        Some(out)
    };
    let end = if p.has("z") { b'\0' } else { b'\n' };
    if !p.operands.is_empty() {
        for a in &p.operands {
            match line_out(ctx, a) {
                Some(s) => {
                    ctx.out.write_all(s.as_bytes())?;
                    ctx.out.write_all(&[end])?;
                }
                None => return Ok(2),
            }
        }
    } else {
        let mut header = match p.opts.iter().rev().find(|f| f.key == "header") {
            Some(f) => match f.val.as_deref().map(|v| v.parse::<usize>()) {
                None => 1,
                Some(Ok(n)) if n > 0 => n,
                Some(_) => {
                    ctx.diag.error(format!("invalid header value {}", lq(f.val.as_deref().unwrap_or(""))));
                    return Ok(1);
                }
            },
            None => 0,
        };
        let mut stop = false;
        let mut lines = Vec::new();
        input::each_record(ctx.stdin, end, |rec| {
            lines.push(rec.to_vec());
            Ok(true)
        })?;
        for rec in lines {
            let (body, had_end) = input::chomp(&rec, end);
            let text = String::from_utf8_lossy(body).into_owned();
            let conv = if header > 0 {
                header -= 1;
                Some(text)
            } else {
                line_out(ctx, &text)
            };
            match conv {
                Some(s) => {
                    ctx.out.write_all(s.as_bytes())?;
                    if had_end {
                        ctx.out.write_all(&[end])?;
                    }
                }
                None => {
                    stop = true;
                    break;
                }
            }
        }
        if stop {
            return Ok(2);
        }
    }
    Ok(if failed { 2 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::check;

    #[test]
    fn table() {
        // (args, stdin, stdout, status) from GNU coreutils 9.1.
        let cases: &[(&[&str], &str, &str, i32)] = &[
            (&["--to=si", "1000", "1500", "999", "1000000", "123456789", "0"], "", "1.0K\n1.5K\n999\n1.0M\n124M\n0\n", 0),
            (&["--to=iec", "1024", "1536", "1048576", "10", "2000"], "", "1.0K\n1.5K\n1.0M\n10\n2.0K\n", 0),
            (&["--to=iec-i", "1536"], "", "1.5Ki\n", 0),
            (&["--from=si", "1K", "1.5M", "2G"], "", "1000\n1500000\n2000000000\n", 0),
            (&["--from=iec-i", "1Ki", "2Mi"], "", "1024\n2097152\n", 0),
            (&["--from=auto", "1Ki", "1K"], "", "1024\n1000\n", 0),
            (&["--to=si", "--suffix=B", "2000"], "", "2.0KB\n", 0),
            (&["--padding=8", "--to=si", "2000"], "", "    2.0K\n", 0),
            (&["--padding=-8", "--to=si", "2000"], "", "2.0K    \n", 0),
            (&["--field=2", "--to=iec"], "x 2048 y\n", "x 2.0K y\n", 0),
            (&["--field=2-", "--to=iec"], "a 1024 2048\n", "a 1.0K 2.0K\n", 0),
            (&["--to=si", "9999", "99999", "999999", "1234"], "", "10K\n100K\n1.0M\n1.3K\n", 0),
            (&["--to=iec", "--format=%.2f", "1536"], "", "1.50K\n", 0),
            (&["--header", "--to=si"], "size\n2000\n", "size\n2.0K\n", 0),
            (&["--to=si", "--round=down", "1999"], "", "1.9K\n", 0),
            (&["--to=si", "--round=nearest", "1234", "1250", "1260"], "", "1.2K\n1.3K\n1.3K\n", 0),
            (&["--invalid=ignore", "x", "12"], "", "x\n12\n", 0),
            (&["--invalid=fail", "x", "12"], "", "x\n12\n", 2),
            (&["x"], "", "", 2),
            (&["--from-unit=1024", "--to=si", "3"], "", "3.1K\n", 0),
            (&["--to-unit=1000", "5000"], "", "5\n", 0),
            (&["-d,", "--field=2", "--to=si"], "a,3000,b\n", "a,3.0K,b\n", 0),
            (&["--to=si"], "  100 200\n", "  100 200\n", 0),
            (&["--suffix=B", "--from=si", "2KB"], "", "2000B\n", 0),
            (&["--format=%10f", "--to=si", "2000"], "", "      2.0K\n", 0),
            (&["--format=%-10f|", "2000"], "", "2000      |\n", 0),
            (&["--to=iec", "1125899906842624"], "", "1.0P\n", 0),
            (&["--format=%.3f", "1.23456"], "", "1.235\n", 0),
            (&["--from=si", "--to=iec", "1M"], "", "977K\n", 0),
            (&["--to=si", "--", "-1500"], "", "-1.5K\n", 0),
            (&["--from=si", "5k"], "", "", 2),
            (&["--format=%08.1f", "--to=si", "1234"], "", "000001.3K\n", 0),
        ];
        for (args, stdin, out, code) in cases {
            check("numfmt", args, stdin, out, *code);
        }
    }
}
