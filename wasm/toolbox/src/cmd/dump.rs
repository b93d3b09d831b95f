//! Byte dumpers: od (-A -t -c -b -d -o -x -N -j -v -w), xxd (-p -r -l -s -c
//! -g -u -i); hexdump is in hexdump.rs. All read
//! their input whole; they are for inspecting files, not streaming.

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::input;
use std::io::{Read, Write};

/// Reads the operands (or stdin) into one buffer, as od and hexdump do.
fn read_all(ctx: &mut Ctx, ops: &[String]) -> Option<Vec<u8>> {
    let mut data = Vec::new();
    let mut ok = true;
    for name in input::or_stdin(ops) {
        let r = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_end(&mut data));
        if let Err(e) = r {
            ctx.diag.error(format!("{}: {}", name, reason(&e)));
            ok = false;
        }
    }
    if ok || !data.is_empty() {
        Some(data)
    } else {
        None
    }
}

pub(crate) fn parse_num(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return u64::from_str_radix(h, 16).ok();
    }
    crate::num::parse_size(s)
}

// ---- od ----

#[derive(Clone, Copy)]
enum OdType {
    Char,
    Named,
    Int { size: usize, radix: u32, signed: bool },
    Float(usize),
}

/// One -t format: its type and whether `z` asked for the `>text<` trailer.
#[derive(Clone, Copy)]
struct OdSpec {
    t: OdType,
    z: bool,
}

impl OdType {
    fn size(self) -> usize {
        match self {
            OdType::Char | OdType::Named => 1,
            OdType::Int { size, .. } => size,
            OdType::Float(size) => size,
        }
    }
    /// GNU's field width: the widest value the type can print.
    fn field_width(self) -> usize {
        match self {
            OdType::Char | OdType::Named => 3,
            OdType::Int { size, radix: 8, .. } => (size * 8 + 2) / 3,
            OdType::Int { size, radix: 16, .. } => size * 2,
            OdType::Int { size, signed, .. } => match size {
                1 => 3 + signed as usize,
                2 => 5 + signed as usize,
                4 => 10 + signed as usize,
                _ => 20,
            },
            OdType::Float(4) => 15,
            OdType::Float(_) => 24,
        }
    }
}

const OD_SPECS: &[Spec] = &[
    val('A', "address-radix", "A"),
    val('t', "format", "t"),
    val('N', "read-bytes", "N"),
    val('j', "skip-bytes", "j"),
    flag('v', "output-duplicates", "v"),
    optval('w', "width", "w"),
    val('S', "", "S"),
    optval('\0', "strings", "S"),
    val('\0', "endian", "endian"),
    flag('\0', "traditional", "traditional"),
    flag('c', "", "c"),
    flag('b', "", "b"),
    flag('d', "", "d"),
    flag('o', "", "o"),
    flag('x', "", "x"),
    flag('a', "", "a"),
    flag('f', "", "f"),
    flag('i', "", "i"),
    flag('l', "", "l"),
    flag('s', "", "s"),
];
const OD_HELP: &str = "Usage: od [OPTION]... [FILE]...\n  or:  od --traditional [FILE] [[+]OFFSET[.][b] [+][LABEL][.][b]]\nWrite an unambiguous representation, octal bytes by default, of FILE to standard output.\n\n  -A, --address-radix=RADIX   output format for file offsets; RADIX is one of [doxn]\n      --endian={big|little}   swap input bytes according the specified order\n  -j, --skip-bytes=BYTES      skip BYTES input bytes first\n  -N, --read-bytes=BYTES      limit dump to BYTES input bytes\n  -S BYTES, --strings[=BYTES]  show only NUL terminated strings of at least BYTES (3) printable characters\n  -t, --format=TYPE           select output format or formats (a, c, d[SIZE], f[SIZE], o[SIZE], u[SIZE], x[SIZE], z suffix)\n  -v, --output-duplicates     do not use * to mark line suppression\n  -w, --width[=BYTES]         output BYTES bytes per output line (32 without BYTES)\n      --traditional           accept arguments in traditional form\n  -a  same as -t a;  -b  same as -t o1;  -c  same as -t c;  -d  same as -t u2;  -f  same as -t fF\n  -i  same as -t dI;  -l  same as -t dL;  -o  same as -t o2;  -s  same as -t d2;  -x  same as -t x2\n";

fn parse_od_type(s: &str) -> Result<Vec<OdSpec>, String> {
    let mut out = Vec::new();
    let cs: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        i += 1;
        let mut size_s = String::new();
        while i < cs.len() && (cs[i].is_ascii_digit() || "CSILFD".contains(cs[i])) {
            size_s.push(cs[i]);
            i += 1;
        }
        let z = i < cs.len() && cs[i] == 'z';
        if z {
            i += 1;
        }
        let size = |dflt: usize| -> Result<usize, String> {
            match size_s.as_str() {
                "" => Ok(dflt),
                "C" => Ok(1),
                "S" => Ok(2),
                "I" | "F" => Ok(4),
                "L" | "D" => Ok(8),
                n => match n.parse::<usize>() {
                    Ok(v) if [1, 2, 4, 8].contains(&v) => Ok(v),
                    _ => Err(format!("invalid type string {};\nthis system doesn't provide a {}-byte integral type", lq(s), n)),
                },
            }
        };
        let t = match c {
            'a' => OdType::Named,
            'c' => OdType::Char,
            'd' => OdType::Int { size: size(4)?, radix: 10, signed: true },
            'u' => OdType::Int { size: size(4)?, radix: 10, signed: false },
            'o' => OdType::Int { size: size(4)?, radix: 8, signed: false },
            'x' => OdType::Int { size: size(4)?, radix: 16, signed: false },
            'f' => OdType::Float(match size(8)? {
                4 => 4,
                _ => 8,
            }),
            _ => return Err(format!("invalid character '{}' in type string {}", c, lq(s))),
        };
        out.push(OdSpec { t, z });
    }
    Ok(out)
}

const NAMED: [&str; 33] = ["nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr", "so", "si", "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp"];

/// A float as C's `%.*g` with the fewest digits that read back the same (at least FLT_DIG or
/// DBL_DIG for normal numbers), which is what GNU od prints.
fn od_float(v: f64, single: bool) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan".into() } else { "nan".into() };
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf".into() } else { "inf".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let sci = if single { format!("{:e}", v as f32) } else { format!("{:e}", v) };
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let normal = if single { (v as f32).is_normal() } else { v.is_normal() };
    let prec = digits.len().max(if !normal { 1 } else if single { 6 } else { 15 }) as i32;
    let sign = if neg { "-" } else { "" };
    if exp < -4 || exp >= prec {
        let rest = &digits[1..];
        let dot = if rest.is_empty() { String::new() } else { format!(".{}", rest) };
        format!("{}{}{}e{}{:02}", sign, &digits[..1], dot, if exp < 0 { '-' } else { '+' }, exp.abs())
    } else if exp >= 0 {
        let e = exp as usize + 1;
        let int = if digits.len() > e { &digits[..e] } else { &digits };
        let zeros = e.saturating_sub(digits.len());
        let frac = if digits.len() > e { format!(".{}", &digits[e..]) } else { String::new() };
        format!("{}{}{}{}", sign, int, "0".repeat(zeros), frac)
    } else {
        format!("{}0.{}{}", sign, "0".repeat((-exp - 1) as usize), digits)
    }
}

/// The values of one line in one type, each as text (the chunk zero-filled to whole values).
fn od_values(t: OdType, chunk: &[u8], big: bool) -> Vec<String> {
    let size = t.size();
    let mut out = Vec::new();
    for c in chunk.chunks(size) {
        let mut buf = [0u8; 8];
        buf[..c.len()].copy_from_slice(c);
        if big {
            buf[..size].reverse();
        }
        let v = u64::from_le_bytes(buf);
        let b = c[0];
        out.push(match t {
            OdType::Char => c_escape(b),
            OdType::Named => {
                let b = b & 0x7f;
                if b <= 32 {
                    NAMED[b as usize].to_string()
                } else if b == 127 {
                    "del".into()
                } else {
                    (b as char).to_string()
                }
            }
            OdType::Int { radix: 8, .. } => format!("{:0w$o}", v, w = t.field_width()),
            OdType::Int { radix: 16, .. } => format!("{:0w$x}", v, w = t.field_width()),
            OdType::Int { signed: true, .. } => {
                let shift = 64 - size * 8;
                (((v << shift) as i64) >> shift).to_string()
            }
            OdType::Int { .. } => v.to_string(),
            OdType::Float(4) => od_float(f32::from_bits(v as u32) as f64, true),
            OdType::Float(_) => od_float(f64::from_bits(v), false),
        });
    }
    out
}

/// One output line of one type, spaced as GNU spaces it: every type's line is as wide as the
/// widest, the extra room shared out between the fields.
fn od_line(spec: OdSpec, chunk: &[u8], width: usize, per_block: usize, big: bool) -> String {
    let (size, fw) = (spec.t.size(), spec.t.field_width());
    let fields = width / size;
    let pad = per_block - fw * fields;
    let mut s = String::new();
    let mut pad_left = pad;
    for (i, v) in od_values(spec.t, chunk, big).iter().enumerate() {
        let next = pad * (fields - i - 1) / fields;
        s.push_str(&format!("{:>w$}", v, w = pad_left - next + fw));
        pad_left = next;
    }
    if spec.z {
        let blank = (width - chunk.len()) / size;
        s.push_str(&" ".repeat(blank * (fw + pad / fields)));
        s.push_str("  >");
        s.extend(chunk.iter().map(|&b| if (32..127).contains(&b) { b as char } else { '.' }));
        s.push('<');
    }
    s
}

/// A byte as od -c and hexdump's %_c show it: C escapes, printable ASCII, else 3-digit octal.
pub(crate) fn c_escape(b: u8) -> String {
    match b {
        0 => "\\0".into(),
        7 => "\\a".into(),
        8 => "\\b".into(),
        9 => "\\t".into(),
        10 => "\\n".into(),
        11 => "\\v".into(),
        12 => "\\f".into(),
        13 => "\\r".into(),
        32..=126 => (b as char).to_string(),
        _ => format!("{:03o}", b),
    }
}

fn od_addr(radix: char, n: usize) -> String {
    match radix {
        'x' => format!("{:06x}", n),
        'd' => format!("{:07}", n),
        'n' => String::new(),
        _ => format!("{:07o}", n),
    }
}

/// --traditional's `[+]OFFSET[.][b]`: octal, decimal with a dot, times 512 with b.
fn trad_offset(s: &str) -> Option<usize> {
    let s = s.strip_prefix('+').unwrap_or(s);
    let (s, mul) = match s.strip_suffix('b') {
        Some(r) => (r, 512),
        None => (s, 1),
    };
    let n = match s.strip_suffix('.') {
        Some(d) => d.parse::<usize>().ok()?,
        None if s.starts_with("0x") || s.starts_with("0X") => usize::from_str_radix(&s[2..], 16).ok()?,
        None => usize::from_str_radix(s, 8).ok()?,
    };
    Some(n * mul)
}

/// -S: NUL-terminated runs of at least `min` printable bytes, each after its address.
fn od_strings(ctx: &mut Ctx, body: &[u8], base: usize, min: usize, radix: char) -> Res {
    let mut start = 0;
    for (i, &b) in body.iter().enumerate() {
        if (32..127).contains(&b) {
            continue;
        }
        if b == 0 && i - start >= min {
            let addr = od_addr(radix, base + start);
            let sep = if radix == 'n' { "" } else { " " };
            writeln!(ctx.out, "{}{}{}", addr, sep, String::from_utf8_lossy(&body[start..i]))?;
        }
        start = i + 1;
    }
    Ok(0)
}

pub fn run_od(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, OD_SPECS, OD_HELP, 1);
    let radix = match p.last("A") {
        None => 'o',
        Some(r) if r.len() == 1 && "doxn".contains(r) => r.chars().next().unwrap(),
        Some(r) => {
            ctx.diag.error(format!("invalid output address radix '{}'; it must be one character from [doxn]", r));
            return Ok(1);
        }
    };
    let big = match p.last("endian") {
        None | Some("little") => false,
        Some("big") => true,
        Some(e) => {
            ctx.diag.error(format!("invalid argument {} for '--endian'\nValid arguments are:\n  - 'big'\n  - 'little'", lq(e)));
            ctx.diag.try_help();
            return Ok(1);
        }
    };
    let mut types: Vec<OdSpec> = Vec::new();
    for o in &p.opts {
        let spec = match o.key {
            "t" => o.val.clone().unwrap_or_default(),
            "c" => "c".into(),
            "a" => "a".into(),
            "b" => "o1".into(),
            "d" => "u2".into(),
            "o" => "o2".into(),
            "x" => "x2".into(),
            "f" => "fF".into(),
            "i" => "dI".into(),
            "l" => "dL".into(),
            "s" => "d2".into(),
            _ => continue,
        };
        match parse_od_type(&spec) {
            Ok(t) => types.extend(t),
            Err(m) => {
                ctx.diag.error(m);
                return Ok(1);
            }
        }
    }
    if types.is_empty() {
        types.push(OdSpec { t: OdType::Int { size: 2, radix: 8, signed: false }, z: false });
    }
    let width = match p.opts.iter().rev().find(|o| o.key == "w") {
        Some(o) => match o.val.as_deref().map(|w| w.parse::<usize>()) {
            None => 32,
            Some(Ok(n)) if n > 0 => n,
            _ => {
                ctx.diag.error(format!("invalid -w argument {}", lq(o.val.as_deref().unwrap_or(""))));
                return Ok(1);
            }
        },
        None => 16,
    };
    if let Some(t) = types.iter().find(|t| width % t.t.size() != 0) {
        let _ = t;
        ctx.diag.error(format!("warning: invalid width {}; using {} instead", width, 16));
        return Ok(1);
    }
    let mut operands = p.operands.clone();
    let mut trad_skip = None;
    if p.has("traditional") {
        let n = operands.len();
        if (n == 2 || n == 3) && trad_offset(&operands[1]).is_some() {
            trad_skip = trad_offset(&operands[1]);
            operands.truncate(1);
        } else if n == 1 && operands[0].starts_with('+') && trad_offset(&operands[0]).is_some() {
            trad_skip = trad_offset(&operands[0]);
            operands.clear();
        }
    }
    let data = match read_all(ctx, &operands) {
        Some(d) => d,
        None => return Ok(1),
    };
    let skip = match p.last("j").map(parse_num) {
        Some(Some(n)) => n as usize,
        Some(None) => {
            ctx.diag.error(format!("invalid -j argument {}", lq(p.last("j").unwrap())));
            return Ok(1);
        }
        None => trad_skip.unwrap_or(0),
    };
    if skip > data.len() {
        ctx.diag.error("cannot skip past end of combined input");
        return Ok(1);
    }
    let mut end = data.len();
    if let Some(n) = p.last("N") {
        match parse_num(n) {
            Some(n) => end = end.min(skip + n as usize),
            None => {
                ctx.diag.error(format!("invalid -N argument {}", lq(n)));
                return Ok(1);
            }
        }
    }
    let body = &data[skip..end];
    if let Some(o) = p.opts.iter().rev().find(|o| o.key == "S") {
        let min = match o.val.as_deref().map(parse_num) {
            None => 3,
            Some(Some(n)) => n as usize,
            Some(None) => {
                ctx.diag.error(format!("invalid -S argument {}", lq(o.val.as_deref().unwrap_or(""))));
                return Ok(1);
            }
        };
        od_strings(ctx, body, skip, min, radix)?;
        return Ok(if ctx.diag.failed { 1 } else { 0 });
    }
    let per_block = types.iter().map(|t| (t.t.field_width() + 1) * (width / t.t.size())).max().unwrap_or(0);
    let mut prev: Option<&[u8]> = None;
    let mut starred = false;
    let mut off = 0;
    while off < body.len() {
        let chunk = &body[off..(off + width).min(body.len())];
        if !p.has("v") && prev == Some(chunk) && chunk.len() == width {
            if !starred {
                writeln!(ctx.out, "*")?;
                starred = true;
            }
            off += width;
            continue;
        }
        starred = false;
        prev = Some(chunk);
        for (i, t) in types.iter().enumerate() {
            let addr = if i == 0 { od_addr(radix, skip + off) } else { " ".repeat(od_addr(radix, 0).len()) };
            writeln!(ctx.out, "{}{}", addr, od_line(*t, chunk, width, per_block, big))?;
        }
        off += width;
    }
    if radix != 'n' {
        writeln!(ctx.out, "{}", od_addr(radix, skip + body.len()))?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

// ---- xxd ----

const XXD_SPECS: &[Spec] = &[
    flag('p', "plain", "p"),
    flag('p', "ps", "p"),
    flag('r', "revert", "r"),
    val('l', "len", "l"),
    val('s', "seek", "s"),
    val('c', "cols", "c"),
    val('g', "groupsize", "g"),
    flag('u', "", "u"),
    flag('i', "include", "i"),
    flag('e', "", "e"),
    flag('a', "", "a"),
    flag('b', "", "b"),
    flag('C', "", "C"),
    flag('d', "", "d"),
    val('n', "", "n"),
    val('o', "", "o"),
    flag('v', "", crate::args::VERSION),
    flag('E', "", "E"),
];

/// -E: how xxd's text column shows each byte read as EBCDIC (its own table: code page 037's
/// letters, digits and punctuation, with `~ ^ [ ]` where xxd puts them), '.' for the rest.
const EBCDIC_TEXT: &[u8; 256] = b"................................................................ ...........<(+|&.........!$*);~-/.........,%_>?.........`:#@'=\".abcdefghi.......jklmnopqr^.......stuvwxyz...[...............]..{ABCDEFGHI......}JKLMNOPQR......\\.STUVWXYZ......0123456789......";

/// xxd spells its long options with one dash and takes any unambiguous prefix (`-ps`,
/// `-cols`); they become the short ones.
fn xxd_args(args: &[String]) -> Vec<String> {
    const LONG: &[(&str, &str)] = &[
        ("autoskip", "-a"), ("bits", "-b"), ("capitalize", "-C"), ("cols", "-c"), ("decimal", "-d"), ("EBCDIC", "-E"), ("groupsize", "-g"),
        ("include", "-i"), ("len", "-l"), ("name", "-n"), ("offset", "-o"), ("postscript", "-p"), ("plain", "-p"), ("ps", "-p"), ("revert", "-r"),
        ("seek", "-s"), ("upper", "-u"), ("version", "-v"), ("help", "--help"),
    ];
    let mut out = Vec::new();
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        if a == "--" {
            out.push(a.clone());
            out.extend(iter.cloned());
            break;
        }
        let word = a.strip_prefix('-').filter(|w| w.len() > 1 && !w.starts_with('-') && w.chars().all(|c| c.is_ascii_alphabetic()));
        match word.and_then(|w| LONG.iter().find(|(l, _)| *l == w || (w.len() > 1 && l.starts_with(w)))) {
            Some((_, short)) => out.push(short.to_string()),
            None => out.push(a.clone()),
        }
    }
    out
}
const XXD_HELP: &str = "Usage: xxd [options] [infile [outfile]]\n    or xxd -r [-p] [infile [outfile]]\nOptions:\n    -c cols     format <cols> octets per line. Default 16 (-i: 12, -p: 30).\n    -g bytes    number of octets per group in normal output. Default 2.\n    -i          output in C include file style.\n    -l len      stop after <len> octets.\n    -p          output in postscript plain hexdump style.\n    -r          reverse operation: convert (or patch) hexdump into binary.\n    -s offset   start at <seek> bytes abs. infile offset.\n    -u          use upper case hex letters.\n";

fn xxd_revert(text: &str, plain: bool) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::new();
    let hexval = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    if plain {
        let mut hi: Option<u8> = None;
        for c in text.bytes() {
            if let Some(v) = hexval(c) {
                match hi.take() {
                    Some(h) => out.push(h << 4 | v),
                    None => hi = Some(v),
                }
            }
        }
        return out;
    }
    for line in text.lines() {
        let (addr, rest) = match line.split_once(':') {
            Some(x) => x,
            None => continue,
        };
        let addr = usize::from_str_radix(addr.trim(), 16).unwrap_or(out.len());
        if out.len() < addr {
            out.resize(addr, 0);
        }
        out.truncate(addr);
        // Hex columns end at the first double space (before the text column).
        let hexpart = match rest.find("  ") {
            Some(i) => &rest[..i],
            None => rest,
        };
        let mut hi: Option<u8> = None;
        for c in hexpart.bytes() {
            if c == b' ' {
                continue;
            }
            match hexval(c) {
                Some(v) => match hi.take() {
                    Some(h) => out.push(h << 4 | v),
                    None => hi = Some(v),
                },
                None => break,
            }
        }
    }
    out
}

pub fn run_xxd(ctx: &mut Ctx, args: &[String]) -> Res {
    let args = xxd_args(args);
    let p = getopt!(ctx, &args, XXD_SPECS, XXD_HELP, 1);
    if p.operands.len() > 2 {
        ctx.diag.usage(format!("too many arguments: {}", q(&p.operands[2])));
        return Ok(1);
    }
    let outfile = p.operands.get(1).cloned();
    let ins: Vec<String> = p.operands.iter().take(1).cloned().collect();
    let data = match read_all(ctx, &ins) {
        Some(d) => d,
        None => return Ok(2),
    };
    let upper = p.has("u");
    let num_opt = |k: &str| -> Result<Option<usize>, String> {
        match p.last(k) {
            None => Ok(None),
            Some(v) => parse_num(v).map(|n| Some(n as usize)).ok_or_else(|| format!("invalid number {}", lq(v))),
        }
    };
    // -s -N counts from the end, -s +N from the start.
    let seek = match p.last("s") {
        Some(v) if v.starts_with('-') => parse_num(&v[1..]).map(|n| data.len().saturating_sub(n as usize)).ok_or_else(|| format!("invalid number {}", lq(v))),
        Some(v) => parse_num(v.trim_start_matches('+')).map(|n| n as usize).ok_or_else(|| format!("invalid number {}", lq(v))),
        None => Ok(0),
    };
    let (seek, len, cols, group, disp) = match (seek, num_opt("l"), num_opt("c"), num_opt("g"), num_opt("o")) {
        (Ok(a), Ok(b), Ok(c), Ok(d), Ok(o)) => (a, b, c, d, o.unwrap_or(0)),
        (Err(m), ..) | (_, Err(m), ..) | (_, _, Err(m), ..) | (_, _, _, Err(m), _) | (.., Err(m)) => {
            ctx.diag.error(m);
            return Ok(1);
        }
    };
    let mut out: Vec<u8> = Vec::new();
    if p.has("r") {
        out = xxd_revert(&String::from_utf8_lossy(&data), p.has("p"));
    } else {
        let body = &data[seek.min(data.len())..];
        let body = &body[..len.unwrap_or(body.len()).min(body.len())];
        let hx = |b: u8| if upper { format!("{:02X}", b) } else { format!("{:02x}", b) };
        if p.has("p") {
            let cols = cols.unwrap_or(30).max(1);
            for ch in body.chunks(cols) {
                let line: String = ch.iter().map(|b| hx(*b)).collect();
                out.extend_from_slice(line.as_bytes());
                out.push(b'\n');
            }
        } else if p.has("i") {
            let cols = cols.unwrap_or(12).max(1);
            let name: String = match p.last("n") {
                Some(n) => n.to_string(),
                None => ins.first().map(|n| n.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect()).unwrap_or_default(),
            };
            let name = if p.has("C") && p.last("n").is_none() { name.to_uppercase() } else { name };
            let len_name = if p.has("C") && p.last("n").is_none() { format!("{}_LEN", name) } else { format!("{}_len", name) };
            if !name.is_empty() {
                out.extend_from_slice(format!("unsigned char {}[] = {{\n", name).as_bytes());
            }
            let lines: Vec<String> = body.chunks(cols).map(|ch| format!("  {}", ch.iter().map(|b| format!("0x{}", hx(*b))).collect::<Vec<_>>().join(", "))).collect();
            out.extend_from_slice(lines.join(",\n").as_bytes());
            if !lines.is_empty() {
                out.push(b'\n');
            }
            if !name.is_empty() {
                out.extend_from_slice(format!("}};\nunsigned int {} = {};\n", len_name, body.len()).as_bytes());
            }
        } else {
            let bits = p.has("b");
            let cols = cols.unwrap_or(if bits { 6 } else { 16 }).max(1);
            let group = group.unwrap_or(if bits { 1 } else if p.has("e") { 4 } else { 2 });
            let per = if bits { 8 } else { 2 };
            let hexw = cols * per + if group > 0 { (cols + group - 1) / group } else { 0 };
            let lines: Vec<&[u8]> = body.chunks(cols).collect();
            let mut starred = false;
            for (i, ch) in lines.iter().enumerate() {
                // -a: a run of all-zero lines shows its first, a `*`, and its last if the input ends there.
                let zero = ch.iter().all(|&b| b == 0);
                if p.has("a") && zero && i > 0 && lines[i - 1].iter().all(|&b| b == 0) && i + 1 < lines.len() {
                    if !starred {
                        out.extend_from_slice(b"*\n");
                        starred = true;
                    }
                    continue;
                }
                starred = false;
                let mut hexs = String::new();
                let cell = |b: u8| if bits { format!("{:08b}", b) } else { hx(b) };
                if p.has("e") && group > 0 {
                    for g in ch.chunks(group) {
                        let cells: String = g.iter().rev().map(|&b| cell(b)).collect();
                        hexs.push_str(&format!("{:>w$} ", cells, w = group * per));
                    }
                } else {
                    for (j, b) in ch.iter().enumerate() {
                        hexs.push_str(&cell(*b));
                        if group > 0 && (j + 1) % group == 0 {
                            hexs.push(' ');
                        }
                    }
                }
                let text: String = ch.iter().map(|&b| if p.has("E") { EBCDIC_TEXT[b as usize] as char } else if (32..127).contains(&b) { b as char } else { '.' }).collect();
                let at = disp + seek + i * cols;
                let addr = if p.has("d") { format!("{:08}", at) } else { format!("{:08x}", at) };
                out.extend_from_slice(format!("{}: {:<w$} {}\n", addr, hexs, text, w = hexw).as_bytes());
            }
        }
    }
    match outfile {
        Some(f) => {
            if let Err(e) = std::fs::write(crate::fsx::host(&f), &out) {
                ctx.diag.error(format!("{}: {}", f, reason(&e)));
                return Ok(2);
            }
        }
        None => ctx.out.write_all(&out)?,
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::testutil::check;

    #[test]
    fn table() {
        let bin = "hello world\nabc\u{0}";
        let cases: &[(&str, &[&str], &str, &str)] = &[
            ("od", &[], bin, "0000000 062550 066154 020157 067567 066162 005144 061141 000143\n0000020\n"),
            ("od", &["-c"], bin, "0000000   h   e   l   l   o       w   o   r   l   d  \\n   a   b   c  \\0\n0000020\n"),
            ("od", &["-An", "-tx1"], "hi\n", " 68 69 0a\n"),
            ("od", &["-t", "x2", "-A", "x"], "abc", "000000 6261 0063\n000003\n"),
            ("od", &["-d"], "hello world\n", "0000000 25960 27756  8303 28535 27762  2660\n0000014\n"),
            ("od", &["-c"], "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "0000000   a   a   a   a   a   a   a   a   a   a   a   a   a   a   a   a\n*\n0000060   a   a   a   a   a   a   a   a   a   a\n0000072\n"),
            ("xxd", &[], bin, "00000000: 6865 6c6c 6f20 776f 726c 640a 6162 6300  hello world.abc.\n"),
            ("xxd", &[], "abc", "00000000: 6162 63                                  abc\n"),
            ("xxd", &["-p"], "hello\n", "68656c6c6f0a\n"),
            ("xxd", &["-r", "-p"], "68656c6c6f0a\n", "hello\n"),
            ("xxd", &["-r"], "00000000: 6865 6c6c 6f0a                           hello.\n", "hello\n"),
            ("xxd", &["-l", "2", "-u", "-p"], "\u{7f}\u{1}x", "7F01\n"),
        ];
        for (cmd, args, input, out) in cases {
            check(cmd, args, input, out, 0);
        }
    }
}
