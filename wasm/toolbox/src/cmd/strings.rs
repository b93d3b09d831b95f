//! strings (GNU binutils): runs of at least MIN graphic characters (tab counts, -w adds all
//! whitespace), in 7-bit, 8-bit, 16-bit or 32-bit characters (-e), with UTF-8 shown, escaped
//! or hexed on request (-U). Every file is scanned whole (there are no object sections here,
//! so -d and -T change nothing).

use crate::args::{flag, val, Spec, HELP as HELP_KEY, VERSION};
use crate::ctx::{q, reason, Ctx, Res};
use crate::input;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    flag('a', "all", "a"),
    flag('d', "data", "d"),
    val('n', "bytes", "n"),
    val('t', "radix", "t"),
    flag('f', "print-file-name", "f"),
    flag('o', "", "o"),
    flag('w', "include-all-whitespace", "w"),
    val('e', "encoding", "e"),
    val('s', "output-separator", "s"),
    val('U', "unicode", "U"),
    val('T', "target", "T"),
    flag('v', "", VERSION),
    flag('V', "", VERSION),
    flag('h', "", HELP_KEY),
];
const HELP: &str = "Usage: strings [option(s)] [file(s)]\n Display printable strings in [file(s)] (stdin by default)\n The options are:\n  -a - --all                Scan the entire file (always so here)\n  -d --data                 Only scan the data sections in the file (the whole file here)\n  -f --print-file-name      Print the name of the file before each string\n  -n <number>               Locate & print any sequence of at least <number>\n    --bytes=<number>         displayable characters.  (The default is 4).\n  -t --radix={o,d,x}        Print the location of the string in base 8, 10 or 16\n  -w --include-all-whitespace Include all whitespace as valid string characters\n  -o                        An alias for --radix=o\n  -T --target=<BFDNAME>     Specify the binary file format (ignored here)\n  -e --encoding={s,S,b,l,B,L} Select character size and endianness:\n                            s = 7-bit, S = 8-bit, {b,l} = 16-bit, {B,L} = 32-bit\n  --unicode={default|show|invalid|hex|escape|highlight}\n  -U {d|s|i|x|e|h}          Specify how to treat UTF-8 encoded unicode characters\n  -s --output-separator=<string> String used to separate strings in output.\n  -h --help                 Display this information\n  -v -V --version           Print the program's version number\n";

#[derive(Clone, Copy, PartialEq)]
enum Uni {
    Off,
    Show,
    Escape,
    Hex,
}

/// `-NUM` is `-n NUM`.
fn digits_as_n(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for a in args {
        match a.strip_prefix('-') {
            Some(d) if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) => out.extend(["-n".to_string(), d.to_string()]),
            _ => out.push(a.clone()),
        }
    }
    out
}

/// Length of the UTF-8 sequence starting at `at`, if a valid multi-byte one starts there.
fn utf8_len(data: &[u8], at: usize) -> Option<usize> {
    let n = match data[at] {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let s = data.get(at..at + n)?;
    std::str::from_utf8(s).ok().map(|_| n)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let args = digits_as_n(args);
    let p = getopt!(ctx, &args, SPECS, HELP, 1);
    let min = match p.last("n") {
        Some(n) => match n.parse::<usize>() {
            Ok(v) if v > 0 => v,
            _ => {
                ctx.diag.error(format!("invalid minimum string length {}", q(n)));
                return Ok(1);
            }
        },
        None => 4,
    };
    let radix = if p.has("o") { Some("o") } else { p.last("t") };
    if let Some(r) = radix {
        if !["o", "d", "x"].contains(&r) {
            ctx.diag.error(format!("invalid radix: {}", r));
            return Ok(1);
        }
    }
    let (width, big, eight) = match p.last("e").unwrap_or("s") {
        "s" => (1, false, false),
        "S" => (1, false, true),
        "l" => (2, false, false),
        "b" => (2, true, false),
        "L" => (4, false, false),
        "B" => (4, true, false),
        e => {
            ctx.diag.error(format!("invalid encoding: {}", e));
            return Ok(1);
        }
    };
    let uni = match p.last("U").unwrap_or("default") {
        "d" | "default" | "i" | "invalid" => Uni::Off,
        "l" | "locale" | "h" | "highlight" => Uni::Show,
        "e" | "escape" => Uni::Escape,
        "x" | "hex" => Uni::Hex,
        u => {
            ctx.diag.error(format!("invalid argument to -U/--unicode: {}", u));
            return Ok(1);
        }
    };
    let sep = p.last("s").map(|s| s.as_bytes().to_vec()).unwrap_or_else(|| b"\n".to_vec());
    let all_ws = p.has("w");
    let graphic = |c: u32| c == 9 || (32..127).contains(&c) || (eight && (128..256).contains(&c)) || (all_ws && matches!(c, 10 | 11 | 12 | 13));
    for name in input::or_stdin(&p.operands) {
        let mut data = Vec::new();
        if let Err(e) = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_end(&mut data)) {
            ctx.diag.error(format!("{}: {}", name, reason(&e)));
            continue;
        }
        let shown = if name == "-" { "{standard input}" } else { name.as_str() };
        // One character at `at`: (its text, bytes it takes), or None when not graphic.
        let char_at = |at: usize| -> Option<(Vec<u8>, usize)> {
            if width == 1 && uni != Uni::Off && !eight {
                if let Some(n) = utf8_len(&data, at) {
                    let s = &data[at..at + n];
                    return Some((
                        match uni {
                            Uni::Escape => format!("\\u{:04x}", std::str::from_utf8(s).ok()?.chars().next()? as u32).into_bytes(),
                            Uni::Hex => format!("<0x{}>", s.iter().map(|b| format!("{:02x}", b)).collect::<String>()).into_bytes(),
                            _ => s.to_vec(),
                        },
                        n,
                    ));
                }
            }
            let raw = data.get(at..at + width)?;
            let c = if big { raw.iter().fold(0u32, |v, &b| v << 8 | b as u32) } else { raw.iter().rev().fold(0u32, |v, &b| v << 8 | b as u32) };
            graphic(c).then(|| (vec![c as u8], width))
        };
        let mut at = 0;
        while at < data.len() {
            let start = at;
            let mut text = Vec::new();
            let mut count = 0;
            let mut pos = at;
            while let Some((t, n)) = char_at(pos) {
                text.extend(t);
                count += 1;
                pos += n;
            }
            if count < min {
                // Too short: try again from the next byte.
                at = start + 1;
                continue;
            }
            if p.has("f") {
                write!(ctx.out, "{}: ", shown)?;
            }
            match radix {
                Some("o") => write!(ctx.out, "{:7o} ", start)?,
                Some("d") => write!(ctx.out, "{:7} ", start)?,
                Some(_) => write!(ctx.out, "{:7x} ", start)?,
                None => {}
            }
            ctx.out.write_all(&text)?;
            ctx.out.write_all(&sep)?;
            at = pos + 1;
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::check;

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&[], "ab\u{0}hello\u{1}world!\u{0}xyz", "hello\nworld!\n"),
            (&["-n", "2"], "ab\u{0}c\u{0}de", "ab\nde\n"),
            (&["-t", "x"], "\u{0}\u{0}hello", "      2 hello\n"),
            (&[], "tab\there\n", "tab\there\n"),
        ];
        for (args, input, out) in cases {
            check("strings", args, input, out, 0);
        }
    }
}
