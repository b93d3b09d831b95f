//! Byte dumpers: od (-A -t -c -b -d -o -x -N -j -v -w), xxd (-p -r -l -s -c
//! -g -u -i) and hexdump (-C, the default 2-byte format, -n -s -v). All read
//! their input whole; they are for inspecting files, not streaming.

use crate::args::{flag, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
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

fn parse_num(s: &str) -> Option<u64> {
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

const OD_SPECS: &[Spec] = &[
    val('A', "address-radix", "A"),
    val('t', "format", "t"),
    val('N', "read-bytes", "N"),
    val('j', "skip-bytes", "j"),
    flag('v', "output-duplicates", "v"),
    val('w', "width", "w"),
    flag('c', "", "c"),
    flag('b', "", "b"),
    flag('d', "", "d"),
    flag('o', "", "o"),
    flag('x', "", "x"),
    flag('a', "", "a"),
];
const OD_HELP: &str = "Usage: od [OPTION]... [FILE]...\nWrite an unambiguous representation, octal bytes by default, of FILE to standard output.\n\n  -A, --address-radix=RADIX   output format for file offsets; RADIX is one of [doxn]\n  -j, --skip-bytes=BYTES      skip BYTES input bytes first\n  -N, --read-bytes=BYTES      limit dump to BYTES input bytes\n  -t, --format=TYPE           select output format or formats (a, c, d[SIZE], f[SIZE], o[SIZE], u[SIZE], x[SIZE])\n  -v, --output-duplicates     do not use * to mark line suppression\n  -w, --width[=BYTES]         output BYTES bytes per output line\n  -a  same as -t a;  -b  same as -t o1;  -c  same as -t c;  -d  same as -t u2\n  -o  same as -t o2;  -x  same as -t x2\n";

fn parse_od_type(s: &str) -> Result<Vec<OdType>, String> {
    let mut out = Vec::new();
    let cs: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        i += 1;
        let mut size_s = String::new();
        while i < cs.len() && (cs[i].is_ascii_digit() || "CSILFDz".contains(cs[i])) {
            size_s.push(cs[i]);
            i += 1;
        }
        let size = |dflt: usize| -> Result<usize, String> {
            match size_s.as_str() {
                "" => Ok(dflt),
                "C" => Ok(1),
                "S" => Ok(2),
                "I" => Ok(4),
                "L" => Ok(8),
                "F" => Ok(4),
                "D" => Ok(8),
                n => match n.trim_end_matches('z').parse::<usize>() {
                    Ok(v) if [1, 2, 4, 8].contains(&v) => Ok(v),
                    _ => Err(format!("invalid type string {};\nthis system doesn't provide a {}-byte integral type", q(s), n)),
                },
            }
        };
        out.push(match c {
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
            _ => return Err(format!("invalid character '{}' in type string {}", c, q(s))),
        });
    }
    Ok(out)
}

const NAMED: [&str; 33] = ["nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr", "so", "si", "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp"];

fn od_cells(t: OdType, chunk: &[u8], width: usize) -> String {
    let mut s = String::new();
    match t {
        OdType::Char => {
            for &b in chunk {
                let cell = match b {
                    0 => "\\0".to_string(),
                    7 => "\\a".into(),
                    8 => "\\b".into(),
                    9 => "\\t".into(),
                    10 => "\\n".into(),
                    11 => "\\v".into(),
                    12 => "\\f".into(),
                    13 => "\\r".into(),
                    32..=126 => (b as char).to_string(),
                    _ => format!("{:03o}", b),
                };
                s.push_str(&format!("{:>4}", cell));
            }
        }
        OdType::Named => {
            for &b in chunk {
                let b = b & 0x7f;
                let cell = if b <= 32 { NAMED[b as usize].to_string() } else if b == 127 { "del".into() } else { (b as char).to_string() };
                s.push_str(&format!("{:>4}", cell));
            }
        }
        OdType::Int { size, radix, signed } => {
            let digits = match (radix, size) {
                (8, n) => ((n * 8) as f64 / 3.0).ceil() as usize,
                (16, n) => n * 2,
                (_, 1) => 3 + signed as usize,
                (_, 2) => 5 + signed as usize,
                (_, 4) => 10 + signed as usize,
                _ => 19 + signed as usize + (!signed) as usize,
            };
            for c in chunk.chunks(size) {
                let mut buf = [0u8; 8];
                buf[..c.len()].copy_from_slice(c);
                let v = u64::from_le_bytes(buf);
                let cell = match radix {
                    8 => format!("{:0w$o}", v, w = digits),
                    16 => format!("{:0w$x}", v, w = digits),
                    _ if signed => {
                        let shift = 64 - size * 8;
                        (((v << shift) as i64) >> shift).to_string()
                    }
                    _ => v.to_string(),
                };
                s.push_str(&format!(" {:>w$}", cell, w = digits));
            }
        }
        OdType::Float(size) => {
            for c in chunk.chunks(size) {
                let mut buf = [0u8; 8];
                buf[..c.len()].copy_from_slice(c);
                let v = if size == 4 { f32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]) as f64 } else { f64::from_le_bytes(buf) };
                s.push_str(&format!(" {:>w$}", format!("{:e}", v), w = if size == 4 { 14 } else { 23 }));
            }
        }
    }
    let _ = width;
    s
}

fn od_addr(radix: char, n: usize) -> String {
    match radix {
        'x' => format!("{:06x}", n),
        'd' => format!("{:07}", n),
        'n' => String::new(),
        _ => format!("{:07o}", n),
    }
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
    let mut types = Vec::new();
    for o in &p.opts {
        let spec = match o.key {
            "t" => o.val.clone().unwrap_or_default(),
            "c" => "c".into(),
            "a" => "a".into(),
            "b" => "o1".into(),
            "d" => "u2".into(),
            "o" => "o2".into(),
            "x" => "x2".into(),
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
        types.push(OdType::Int { size: 2, radix: 8, signed: false });
    }
    let width = match p.last("w") {
        Some(w) => match w.parse::<usize>() {
            Ok(n) if n > 0 => n,
            _ => {
                ctx.diag.error(format!("invalid -w argument {}", q(w)));
                return Ok(1);
            }
        },
        None => 16,
    };
    let data = match read_all(ctx, &p.operands) {
        Some(d) => d,
        None => return Ok(1),
    };
    let skip = match p.last("j").map(parse_num) {
        Some(Some(n)) => n as usize,
        Some(None) => {
            ctx.diag.error(format!("invalid -j argument {}", q(p.last("j").unwrap())));
            return Ok(1);
        }
        None => 0,
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
                ctx.diag.error(format!("invalid -N argument {}", q(n)));
                return Ok(1);
            }
        }
    }
    let body = &data[skip..end];
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
            writeln!(ctx.out, "{}{}", addr, od_cells(*t, chunk, width))?;
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
];
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
    let p = getopt!(ctx, args, XXD_SPECS, XXD_HELP, 1);
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
            Some(v) => parse_num(v).map(|n| Some(n as usize)).ok_or_else(|| format!("invalid number {}", q(v))),
        }
    };
    let (seek, len, cols, group) = match (num_opt("s"), num_opt("l"), num_opt("c"), num_opt("g")) {
        (Ok(a), Ok(b), Ok(c), Ok(d)) => (a.unwrap_or(0), b, c, d),
        (Err(m), ..) | (_, Err(m), ..) | (_, _, Err(m), _) | (_, _, _, Err(m)) => {
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
            let name: String = ins.first().map(|n| n.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect()).unwrap_or_default();
            if !name.is_empty() {
                out.extend_from_slice(format!("unsigned char {}[] = {{\n", name).as_bytes());
            }
            let lines: Vec<String> = body.chunks(cols).map(|ch| format!("  {}", ch.iter().map(|b| format!("0x{}", hx(*b))).collect::<Vec<_>>().join(", "))).collect();
            out.extend_from_slice(lines.join(",\n").as_bytes());
            if !lines.is_empty() {
                out.push(b'\n');
            }
            if !name.is_empty() {
                out.extend_from_slice(format!("}};\nunsigned int {}_len = {};\n", name, body.len()).as_bytes());
            }
        } else {
            let cols = cols.unwrap_or(16).max(1);
            let group = group.unwrap_or(2);
            let hexw = cols * 2 + if group > 0 { (cols + group - 1) / group } else { 0 };
            for (i, ch) in body.chunks(cols).enumerate() {
                let mut hexs = String::new();
                for (j, b) in ch.iter().enumerate() {
                    hexs.push_str(&hx(*b));
                    if group > 0 && (j + 1) % group == 0 {
                        hexs.push(' ');
                    }
                }
                let text: String = ch.iter().map(|&b| if (32..127).contains(&b) { b as char } else { '.' }).collect();
                out.extend_from_slice(format!("{:08x}: {:<w$} {}\n", seek + i * cols, hexs, text, w = hexw).as_bytes());
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

// ---- hexdump ----

const HD_SPECS: &[Spec] = &[flag('C', "canonical", "C"), val('n', "length", "n"), val('s', "skip", "s"), flag('v', "no-squeezing", "v"), flag('x', "two-bytes-hex", "x")];
const HD_HELP: &str = "Usage:\n hexdump [options] <file>...\n\nDisplay file contents in hexadecimal, decimal, octal, or ascii.\n\nOptions:\n -C, --canonical           canonical hex+ASCII display\n -x, --two-bytes-hex       two-byte hexadecimal display\n -n, --length <length>     interpret only length bytes of input\n -s, --skip <offset>       skip offset bytes from the beginning\n -v, --no-squeezing        output identical lines\n";

pub fn run_hexdump(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, HD_SPECS, HD_HELP, 1);
    let data = match read_all(ctx, &p.operands) {
        Some(d) => d,
        None => return Ok(1),
    };
    let skip = p.last("s").and_then(parse_num).unwrap_or(0) as usize;
    let body = &data[skip.min(data.len())..];
    let body = match p.last("n").map(parse_num) {
        Some(Some(n)) => &body[..(n as usize).min(body.len())],
        Some(None) => {
            ctx.diag.error(format!("invalid length argument: {}", q(p.last("n").unwrap())));
            return Ok(1);
        }
        None => body,
    };
    let canonical = p.has("C");
    let mut prev: Option<&[u8]> = None;
    let mut starred = false;
    for (i, ch) in body.chunks(16).enumerate() {
        let off = skip + i * 16;
        if !p.has("v") && prev == Some(ch) && ch.len() == 16 {
            if !starred {
                writeln!(ctx.out, "*")?;
                starred = true;
            }
            continue;
        }
        starred = false;
        prev = Some(ch);
        if canonical {
            let mut hexs = String::new();
            for (j, b) in ch.iter().enumerate() {
                hexs.push_str(&format!("{:02x} ", b));
                if j == 7 {
                    hexs.push(' ');
                }
            }
            let text: String = ch.iter().map(|&b| if (32..127).contains(&b) { b as char } else { '.' }).collect();
            writeln!(ctx.out, "{:08x}  {:<49} |{}|", off, hexs, text)?;
        } else {
            let words: Vec<String> = ch
                .chunks(2)
                .map(|w| {
                    let v = w[0] as u16 | (*w.get(1).unwrap_or(&0) as u16) << 8;
                    if p.has("x") {
                        format!("    {:04x}", v)
                    } else {
                        format!("{:04x}", v)
                    }
                })
                .collect();
            let line = if p.has("x") { format!("{:07x}{}", off, words.concat()) } else { format!("{:07x} {}", off, words.join(" ")) };
            let full = if p.has("x") { 7 + 8 * 8 } else { 7 + 40 };
            writeln!(ctx.out, "{:<w$}", line, w = if ch.len() < 16 { full } else { 0 })?;
        }
    }
    if !body.is_empty() || skip > 0 {
        if canonical {
            writeln!(ctx.out, "{:08x}", skip + body.len())?;
        } else {
            writeln!(ctx.out, "{:07x}", skip + body.len())?;
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
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
            ("hexdump", &["-C"], bin, "00000000  68 65 6c 6c 6f 20 77 6f  72 6c 64 0a 61 62 63 00  |hello world.abc.|\n00000010\n"),
            ("hexdump", &["-C"], "abc", "00000000  61 62 63                                          |abc|\n00000003\n"),
            ("hexdump", &[], "abc", "0000000 6261 0063                              \n0000003\n"),
            ("hexdump", &["-C"], "", ""),
        ];
        for (cmd, args, input, out) in cases {
            check(cmd, args, input, out, 0);
        }
    }
}
