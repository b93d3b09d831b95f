//! hexdump (util-linux): every display, the built-in ones (-b -c -C -d -o -x and the default)
//! included, is a format string run by one engine, as util-linux runs it: format units
//! `[N][/M] "text %conv"`, blocks as wide as the widest format, `*` for repeated blocks,
//! blanks for what lies past the end of the input, and `%_A` printed once at the end.

use crate::args::{flag, optval, val, Spec, VERSION};
use crate::ctx::{q, reason, Ctx, Res};
use crate::input;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    flag('b', "one-byte-octal", "b"),
    flag('c', "one-byte-char", "c"),
    flag('C', "canonical", "C"),
    flag('d', "two-bytes-decimal", "d"),
    flag('o', "two-bytes-octal", "o"),
    flag('x', "two-bytes-hex", "x"),
    val('e', "format", "e"),
    val('f', "format-file", "f"),
    optval('L', "color", "L"),
    val('n', "length", "n"),
    val('s', "skip", "s"),
    flag('v', "no-squeezing", "v"),
    flag('V', "", VERSION),
    flag('h', "help", crate::args::HELP),
];
const HELP: &str = "\nUsage:\n hexdump [options] <file>...\n\nDisplay file contents in hexadecimal, decimal, octal, or ascii.\n\nOptions:\n -b, --one-byte-octal      one-byte octal display\n -c, --one-byte-char       one-byte character display\n -C, --canonical           canonical hex+ASCII display\n -d, --two-bytes-decimal   two-byte decimal display\n -o, --two-bytes-octal     two-byte octal display\n -x, --two-bytes-hex       two-byte hexadecimal display\n -L, --color[=<mode>]      interpret color formatting specifiers (never colored here)\n -e, --format <format>     format string to be used for displaying data\n -f, --format-file <file>  file that contains format strings\n -n, --length <length>     interpret only length bytes of input\n -s, --skip <offset>       skip offset bytes from the beginning\n -v, --no-squeezing        output identical lines\n";

const ADDR: &str = "\"%07.7_Ax\n\"";

/// The built-in displays, in util-linux's own format strings.
fn builtin(key: &str) -> &'static [&'static str] {
    match key {
        "b" => &[ADDR, "\"%07.7_ax \" 16/1 \"%03o \" \"\\n\""],
        "c" => &[ADDR, "\"%07.7_ax \" 16/1 \"%3_c \" \"\\n\""],
        "C" => &["\"%08.8_Ax\n\"", "\"%08.8_ax  \" 8/1 \"%02x \" \"  \" 8/1 \"%02x \" ", "\"  |\" 16/1 \"%_p\" \"|\\n\""],
        "d" => &[ADDR, "\"%07.7_ax \" 8/2 \"  %05u \" \"\\n\""],
        "o" => &[ADDR, "\"%07.7_ax \" 8/2 \" %06o \" \"\\n\""],
        "x" => &[ADDR, "\"%07.7_ax \" 8/2 \"   %04x \" \"\\n\""],
        _ => &[ADDR, "\"%07.7_ax \" 8/2 \"%04x \" \"\\n\""],
    }
}

#[derive(Clone, Debug)]
enum Kind {
    Text(String),
    /// `%_a` (current byte) or `%_A` (end of input), in base d, o or x.
    Addr { end: bool, base: char },
    /// %c, %_c, %_p, %_u.
    Char(char),
    Int(char),
    Float(char),
    Str,
}

#[derive(Clone, Debug)]
struct Pr {
    kind: Kind,
    /// printf flags, width and precision ("07.7").
    spec: String,
    bytes: usize,
}

#[derive(Clone, Debug)]
struct Unit {
    reps: usize,
    set_reps: bool,
    prs: Vec<Pr>,
}

impl Unit {
    fn bytes(&self) -> usize {
        self.prs.iter().map(|p| p.bytes).sum()
    }
    fn has_end(&self) -> bool {
        self.prs.iter().any(|p| matches!(p.kind, Kind::Addr { end: true, .. }))
    }
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('a') => out.push('\x07'),
            Some('b') => out.push('\x08'),
            Some('f') => out.push('\x0c'),
            Some('r') => out.push('\r'),
            Some('v') => out.push('\x0b'),
            Some(o) => out.push(o),
            None => out.push('\\'),
        }
    }
    out
}

/// The conversions of one unit's quoted text; `bcnt` is the unit's `/M` byte count.
fn parse_prs(fmt: &str, bcnt: Option<usize>) -> Result<Vec<Pr>, String> {
    let cs: Vec<char> = unescape(fmt).chars().collect();
    let mut prs = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    while i < cs.len() {
        if cs[i] != '%' {
            text.push(cs[i]);
            i += 1;
            continue;
        }
        if cs.get(i + 1) == Some(&'%') {
            text.push('%');
            i += 2;
            continue;
        }
        if !text.is_empty() {
            prs.push(Pr { kind: Kind::Text(std::mem::take(&mut text)), spec: String::new(), bytes: 0 });
        }
        i += 1;
        let mut spec = String::new();
        while i < cs.len() && "-+ #0123456789.".contains(cs[i]) {
            spec.push(cs[i]);
            i += 1;
        }
        let c = *cs.get(i).ok_or("bad format: a conversion is cut short")?;
        i += 1;
        let precision = spec.split_once('.').and_then(|(_, p)| p.parse::<usize>().ok());
        let (kind, dflt) = match c {
            '_' => {
                let k = *cs.get(i).ok_or("bad format: a conversion is cut short")?;
                i += 1;
                match k {
                    'a' | 'A' => {
                        let base = match cs.get(i) {
                            Some(b @ ('d' | 'o' | 'x')) => {
                                i += 1;
                                *b
                            }
                            _ => return Err(format!("bad conversion character %_{}{}", k, cs.get(i).map(|c| c.to_string()).unwrap_or_default())),
                        };
                        (Kind::Addr { end: k == 'A', base }, 0)
                    }
                    'c' | 'p' | 'u' => (Kind::Char(k), 1),
                    _ => return Err(format!("bad conversion character %_{}", k)),
                }
            }
            'c' => (Kind::Char('C'), 1),
            'd' | 'i' | 'o' | 'u' | 'x' | 'X' => (Kind::Int(c), 4),
            'e' | 'E' | 'f' | 'g' | 'G' => (Kind::Float(c), 8),
            's' => (Kind::Str, precision.or(bcnt).ok_or("%s requires a precision or a byte count")?),
            _ => return Err(format!("bad conversion character %{}", c)),
        };
        let bytes = if dflt == 0 { 0 } else { bcnt.unwrap_or(dflt) };
        match (&kind, bytes) {
            (Kind::Int(_), 1 | 2 | 4 | 8) | (Kind::Float(_), 4 | 8) | (Kind::Char(_), 1) | (Kind::Str, _) | (Kind::Addr { .. }, _) => {}
            _ => return Err(format!("bad byte count for conversion character {}", c)),
        }
        prs.push(Pr { kind, spec, bytes });
    }
    if !text.is_empty() {
        prs.push(Pr { kind: Kind::Text(text), spec: String::new(), bytes: 0 });
    }
    Ok(prs)
}

/// One format string: units `[N][/M] "text"`.
fn parse_fs(s: &str) -> Result<Vec<Unit>, String> {
    let cs: Vec<char> = s.chars().collect();
    let mut units = Vec::new();
    let mut i = 0;
    let num = |i: &mut usize| -> Option<usize> {
        let st = *i;
        while *i < cs.len() && cs[*i].is_ascii_digit() {
            *i += 1;
        }
        (st < *i).then(|| cs[st..*i].iter().collect::<String>().parse().unwrap_or(1))
    };
    loop {
        while i < cs.len() && cs[i].is_whitespace() {
            i += 1;
        }
        if i >= cs.len() {
            break;
        }
        let reps = num(&mut i);
        while i < cs.len() && cs[i].is_whitespace() {
            i += 1;
        }
        let mut bcnt = None;
        if cs.get(i) == Some(&'/') {
            i += 1;
            while i < cs.len() && cs[i].is_whitespace() {
                i += 1;
            }
            bcnt = Some(num(&mut i).ok_or_else(|| format!("bad byte count in format {}", q(s)))?);
            while i < cs.len() && cs[i].is_whitespace() {
                i += 1;
            }
        }
        if cs.get(i) != Some(&'"') {
            return Err(format!("bad format {}", q(s)));
        }
        let start = i + 1;
        i = start;
        while i < cs.len() && cs[i] != '"' {
            if cs[i] == '\\' {
                i += 1;
            }
            i += 1;
        }
        if i >= cs.len() {
            return Err(format!("missing closing quote in format {}", q(s)));
        }
        let body: String = cs[start..i].iter().collect();
        i += 1;
        units.push(Unit { reps: reps.unwrap_or(1), set_reps: reps.is_some(), prs: parse_prs(&body, bcnt)? });
    }
    Ok(units)
}

/// C's printf for one value already turned into digits: flags, width, precision.
fn pad(spec: &str, body: String, numeric: bool, neg: bool, prefix: &str) -> String {
    let (flags_w, prec) = match spec.split_once('.') {
        Some((a, p)) => (a, Some(p.parse::<usize>().unwrap_or(0))),
        None => (spec, None),
    };
    let flags: String = flags_w.chars().take_while(|c| "-+ #0".contains(*c)).collect();
    let width: usize = flags_w[flags.len()..].parse().unwrap_or(0);
    let mut digits = body;
    if numeric {
        if let Some(p) = prec {
            if digits.len() < p {
                digits = format!("{}{}", "0".repeat(p - digits.len()), digits);
            }
        }
    } else if let Some(p) = prec {
        digits = digits.chars().take(p).collect();
    }
    let sign = if neg {
        "-"
    } else if numeric && flags.contains('+') {
        "+"
    } else if numeric && flags.contains(' ') {
        " "
    } else {
        ""
    };
    let head = format!("{}{}", sign, prefix);
    let len = head.len() + digits.chars().count();
    if len >= width {
        return format!("{}{}", head, digits);
    }
    let fill = width - len;
    if flags.contains('-') {
        format!("{}{}{}", head, digits, " ".repeat(fill))
    } else if numeric && flags.contains('0') && prec.is_none() {
        format!("{}{}{}", head, "0".repeat(fill), digits)
    } else {
        format!("{}{}{}", " ".repeat(fill), head, digits)
    }
}

fn int_text(conv: char, spec: &str, v: u64, size: usize) -> String {
    let alt = spec.contains('#');
    match conv {
        'd' | 'i' => {
            let shift = 64 - size * 8;
            let s = ((v << shift) as i64) >> shift;
            pad(spec, s.unsigned_abs().to_string(), true, s < 0, "")
        }
        'o' => pad(spec, format!("{:o}", v), true, false, if alt && v != 0 { "0" } else { "" }),
        'x' => pad(spec, format!("{:x}", v), true, false, if alt && v != 0 { "0x" } else { "" }),
        'X' => pad(spec, format!("{:X}", v), true, false, if alt && v != 0 { "0X" } else { "" }),
        _ => pad(spec, v.to_string(), true, false, ""),
    }
}

const NAMES: [&str; 32] = ["nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "lf", "vt", "ff", "cr", "so", "si", "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us"];

fn char_text(kind: char, spec: &str, b: u8) -> Vec<u8> {
    let s = match kind {
        'C' => return pad(spec, "\u{1}".into(), false, false, "").bytes().map(|x| if x == 1 { b } else { x }).collect(),
        'p' => if (32..127).contains(&b) { (b as char).to_string() } else { ".".into() },
        'c' => super::dump::c_escape(b),
        _ => match b {
            0..=31 => NAMES[b as usize].into(),
            127 => "del".into(),
            32..=126 => (b as char).to_string(),
            _ => return pad(spec, format!("{:x}", b), true, false, "").into_bytes(),
        },
    };
    pad(spec, s, false, false, "").into_bytes()
}

fn float_text(conv: char, spec: &str, v: f64) -> String {
    let prec = spec.split_once('.').and_then(|(_, p)| p.parse::<usize>().ok()).unwrap_or(6);
    let body = match conv {
        'f' => format!("{:.*}", prec, v.abs()),
        _ => {
            let s = format!("{:.*e}", prec, v.abs());
            let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
            let e: i32 = e.parse().unwrap_or(0);
            let t = format!("{}e{}{:02}", m, if e < 0 { '-' } else { '+' }, e.abs());
            if conv == 'E' || conv == 'G' {
                t.to_uppercase()
            } else {
                t
            }
        }
    };
    let spec_np = spec.split('.').next().unwrap_or("");
    pad(spec_np, body, true, v.is_sign_negative() && v != 0.0, "")
}

/// One conversion over `data` at `at` (an address, for %_a), or blank past the end.
fn print_pr(out: &mut Vec<u8>, pr: &Pr, data: &[u8], at: usize, addr: usize, end: usize) {
    let spec_blank = || {
        let w = pr.spec.split('.').next().unwrap_or("");
        let w: String = w.chars().filter(|c| c.is_ascii_digit() || *c == '-').collect();
        pad(w.trim_start_matches('0'), String::new(), false, false, "")
    };
    match &pr.kind {
        Kind::Text(t) => out.extend_from_slice(t.as_bytes()),
        Kind::Addr { end: is_end, base } => {
            let a = if *is_end { end } else { addr } as u64;
            out.extend(int_text(if *base == 'd' { 'u' } else { *base }, &pr.spec, a, 8).bytes());
        }
        _ if at >= data.len() => out.extend(spec_blank().bytes()),
        kind => {
            let mut buf = [0u8; 8];
            let avail = &data[at..(at + pr.bytes).min(data.len())];
            match kind {
                Kind::Str => out.extend(pad(&pr.spec, String::from_utf8_lossy(avail).into_owned(), false, false, "").bytes()),
                Kind::Char(k) => out.extend(char_text(*k, &pr.spec, avail[0])),
                Kind::Int(c) => {
                    buf[..avail.len()].copy_from_slice(avail);
                    out.extend(int_text(*c, &pr.spec, u64::from_le_bytes(buf), pr.bytes).bytes());
                }
                Kind::Float(c) => {
                    buf[..avail.len()].copy_from_slice(avail);
                    let v = if pr.bytes == 4 { f32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]) as f64 } else { f64::from_le_bytes(buf) };
                    out.extend(float_text(*c, &pr.spec, v).bytes());
                }
                _ => {}
            }
        }
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let mut formats: Vec<String> = Vec::new();
    for o in &p.opts {
        match o.key {
            "b" | "c" | "C" | "d" | "o" | "x" => formats.extend(builtin(o.key).iter().map(|s| s.to_string())),
            "e" => formats.push(o.val.clone().unwrap_or_default()),
            "f" => {
                let name = o.val.clone().unwrap_or_default();
                let mut text = String::new();
                if let Err(e) = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_string(&mut text)) {
                    ctx.diag.error(format!("{}: {}", name, reason(&e)));
                    return Ok(1);
                }
                formats.extend(text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_string));
            }
            _ => {}
        }
    }
    if formats.is_empty() {
        formats.extend(builtin("").iter().map(|s| s.to_string()));
    }
    let mut fss = Vec::new();
    for f in &formats {
        match parse_fs(f) {
            Ok(u) => fss.push(u),
            Err(m) => {
                ctx.diag.error(m);
                return Ok(1);
            }
        }
    }
    let fs_bytes = |fs: &Vec<Unit>| fs.iter().filter(|u| !u.has_end()).map(|u| u.reps * u.bytes()).sum::<usize>();
    let block = fss.iter().map(fs_bytes).max().unwrap_or(0);
    // A last unit without a count repeats to fill the block.
    for fs in fss.iter_mut() {
        let have = fs_bytes(fs);
        if let Some(u) = fs.last_mut() {
            if have < block && !u.set_reps && u.bytes() > 0 {
                u.reps += (block - have) / u.bytes();
            }
        }
    }
    let mut data = Vec::new();
    let mut ok = true;
    for name in input::or_stdin(&p.operands) {
        if let Err(e) = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_end(&mut data)) {
            ctx.diag.error(format!("{}: {}", name, reason(&e)));
            ok = false;
        }
    }
    if !ok && data.is_empty() {
        return Ok(1);
    }
    let skip = match p.last("s").map(super::dump::parse_num) {
        Some(Some(n)) => n as usize,
        Some(None) => {
            ctx.diag.error(format!("invalid skip argument: {}", q(p.last("s").unwrap())));
            return Ok(1);
        }
        None => 0,
    };
    let body = &data[skip.min(data.len())..];
    let body = match p.last("n").map(super::dump::parse_num) {
        Some(Some(n)) => &body[..(n as usize).min(body.len())],
        Some(None) => {
            ctx.diag.error(format!("invalid length argument: {}", q(p.last("n").unwrap())));
            return Ok(1);
        }
        None => body,
    };
    let end = skip + body.len();
    let mut out: Vec<u8> = Vec::new();
    let mut prev: Option<&[u8]> = None;
    let mut starred = false;
    let mut off = 0;
    while block > 0 && off < body.len() {
        let chunk = &body[off..(off + block).min(body.len())];
        if !p.has("v") && chunk.len() == block && prev == Some(chunk) {
            if !starred {
                out.extend_from_slice(b"*\n");
                starred = true;
            }
            off += block;
            continue;
        }
        starred = false;
        prev = Some(chunk);
        for fs in &fss {
            let mut at = 0;
            for u in fs {
                if u.has_end() {
                    break;
                }
                for rep in (1..=u.reps).rev() {
                    for (k, pr) in u.prs.iter().enumerate() {
                        let mark = out.len();
                        print_pr(&mut out, pr, chunk, at, skip + off + at, end);
                        // The last pass of a repeated unit drops its final blank.
                        if rep == 1 && u.reps > 1 && k + 1 == u.prs.len() && matches!(pr.kind, Kind::Text(_)) && out.len() > mark && out.last().map_or(false, |c| c.is_ascii_whitespace()) {
                            out.pop();
                        }
                        at += pr.bytes;
                    }
                }
            }
        }
        off += block;
        ctx.out.write_all(&out)?;
        out.clear();
    }
    if end > 0 {
        for u in fss.iter().flatten().filter(|u| u.has_end()) {
            for pr in &u.prs {
                print_pr(&mut out, pr, &[], 0, end, end);
            }
        }
    }
    ctx.out.write_all(&out)?;
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::check;

    #[test]
    fn formats() {
        check("hexdump", &["-C"], "abc", "00000000  61 62 63                                          |abc|\n00000003\n", 0);
        check("hexdump", &[], "abc", "0000000 6261 0063                              \n0000003\n", 0);
        check("hexdump", &["-C"], "", "", 0);
        check("hexdump", &["-e", "4/1 \"%02x\" \"\\n\""], "abcdef", "61626364\n6566    \n", 0);
        check("hexdump", &["-b"], "hi", "0000000 150 151                                                        \n0000002\n", 0);
        check("hexdump", &["-e", "\"%_p\""], "a\x01", "a.", 0);
    }
}
