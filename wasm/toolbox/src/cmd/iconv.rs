//! iconv [-c] [-f FROM] [-t TO[//TRANSLIT|//IGNORE]] [-o FILE] [FILE]... —
//! converts between UTF-8, ISO-8859-1, ASCII, Windows-1252, UTF-16 and
//! UTF-32 (LE/BE; plain UTF-16/32 read a BOM and write one, little-endian
//! like glibc on this hardware). Errors give glibc's byte position.

use crate::args::{flag, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::{fsx, input};
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    val('f', "from-code", "f"),
    val('t', "to-code", "t"),
    flag('c', "", "c"),
    flag('l', "list", "l"),
    val('o', "output", "o"),
    flag('s', "silent", "s"),
    flag('\0', "verbose", "verbose"),
    flag('\0', "usage", "usage"),
    flag('V', "", crate::args::VERSION),
];
/// glibc's argp short usage (`iconv --usage`).
const USAGE: &str = "Usage: iconv [-lcs?V] [-f NAME] [-t NAME] [-o FILE] [--from-code=NAME]\n            [--to-code=NAME] [--list] [--output=FILE] [--silent] [--verbose]\n            [--help] [--usage] [--version] [FILE...]\n";
const HELP: &str = "Usage: iconv [OPTION...] [FILE...]\nConvert encoding of given files from one encoding to another.\n\n Input/Output format specification:\n  -f, --from-code=NAME       encoding of original text\n  -t, --to-code=NAME         encoding for output (append //TRANSLIT to\n                             approximate, //IGNORE to drop what cannot be\n                             represented)\n\n Information:\n  -l, --list                 list all known coded character sets\n\n Output control:\n  -c                         omit invalid characters from output\n  -o, --output=FILE          output file\n  -s, --silent               suppress warnings\n\nEncodings here: UTF-8, ISO-8859-1 (LATIN1), ASCII, WINDOWS-1252 (CP1252),\nUTF-16, UTF-16LE, UTF-16BE, UTF-32, UTF-32LE, UTF-32BE.\n";

#[derive(Clone, Copy, PartialEq, Debug)]
enum Enc {
    Utf8,
    Latin1,
    Ascii,
    Cp1252,
    /// (bytes per unit, big endian, BOM: read one / write one)
    Utf16(bool, bool),
    Utf32(bool, bool),
}

const NAMES: &[(&str, Enc)] = &[
    ("UTF8", Enc::Utf8),
    ("ISO88591", Enc::Latin1),
    ("ISO885911987", Enc::Latin1),
    ("LATIN1", Enc::Latin1),
    ("L1", Enc::Latin1),
    ("ASCII", Enc::Ascii),
    ("USASCII", Enc::Ascii),
    ("ANSIX3.41968", Enc::Ascii),
    ("WINDOWS1252", Enc::Cp1252),
    ("CP1252", Enc::Cp1252),
    ("UTF16", Enc::Utf16(false, true)),
    ("UTF16LE", Enc::Utf16(false, false)),
    ("UTF16BE", Enc::Utf16(true, false)),
    ("UTF32", Enc::Utf32(false, true)),
    ("UTF32LE", Enc::Utf32(false, false)),
    ("UTF32BE", Enc::Utf32(true, false)),
];

fn lookup(name: &str) -> Option<Enc> {
    let key: String = name.chars().filter(|c| *c != '-' && *c != '_').collect::<String>().to_ascii_uppercase();
    NAMES.iter().find(|(n, _)| *n == key).map(|(_, e)| *e)
}

/// Windows-1252's 0x80..0x9F (0 = undefined).
const CP1252_HIGH: [u16; 32] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
];

enum Bad {
    Invalid,
    Incomplete,
}

/// Decodes one character at the start of `b`: (char, bytes used).
fn decode(enc: Enc, b: &[u8], big: bool) -> Result<(char, usize), Bad> {
    match enc {
        Enc::Utf8 => {
            let want = match b[0] {
                0x00..=0x7f => 1,
                0xc2..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf4 => 4,
                _ => return Err(Bad::Invalid),
            };
            if b.len() < want {
                return match std::str::from_utf8(b) {
                    Err(e) if e.error_len().is_some() => Err(Bad::Invalid),
                    _ => Err(Bad::Incomplete),
                };
            }
            match std::str::from_utf8(&b[..want]) {
                Ok(s) => Ok((s.chars().next().unwrap_or('\0'), want)),
                Err(_) => Err(Bad::Invalid),
            }
        }
        Enc::Latin1 => Ok((b[0] as char, 1)),
        Enc::Ascii => if b[0] < 0x80 { Ok((b[0] as char, 1)) } else { Err(Bad::Invalid) },
        Enc::Cp1252 => match b[0] {
            0x80..=0x9f => match CP1252_HIGH[(b[0] - 0x80) as usize] {
                0 => Err(Bad::Invalid),
                u => Ok((char::from_u32(u as u32).unwrap_or('\u{fffd}'), 1)),
            },
            c => Ok((c as char, 1)),
        },
        Enc::Utf16(..) => {
            let unit = |i: usize| -> Option<u32> {
                let p = b.get(i..i + 2)?;
                Some(if big { u16::from_be_bytes([p[0], p[1]]) } else { u16::from_le_bytes([p[0], p[1]]) } as u32)
            };
            let u = unit(0).ok_or(Bad::Incomplete)?;
            match u {
                0xd800..=0xdbff => {
                    let l = unit(2).ok_or(Bad::Incomplete)?;
                    if !(0xdc00..=0xdfff).contains(&l) {
                        return Err(Bad::Invalid);
                    }
                    let c = 0x10000 + ((u - 0xd800) << 10) + (l - 0xdc00);
                    char::from_u32(c).map(|c| (c, 4)).ok_or(Bad::Invalid)
                }
                0xdc00..=0xdfff => Err(Bad::Invalid),
                _ => char::from_u32(u).map(|c| (c, 2)).ok_or(Bad::Invalid),
            }
        }
        Enc::Utf32(..) => {
            let p = b.get(0..4).ok_or(Bad::Incomplete)?;
            let u = if big { u32::from_be_bytes([p[0], p[1], p[2], p[3]]) } else { u32::from_le_bytes([p[0], p[1], p[2], p[3]]) };
            char::from_u32(u).map(|c| (c, 4)).ok_or(Bad::Invalid)
        }
    }
}

fn encode(enc: Enc, c: char, out: &mut Vec<u8>) -> bool {
    let u = c as u32;
    match enc {
        Enc::Utf8 => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        Enc::Latin1 | Enc::Ascii => {
            if u >= if enc == Enc::Ascii { 0x80 } else { 0x100 } {
                return false;
            }
            out.push(u as u8);
        }
        Enc::Cp1252 => {
            if u < 0x80 || (0xa0..0x100).contains(&u) {
                out.push(u as u8);
            } else {
                match CP1252_HIGH.iter().position(|&x| x as u32 == u && x != 0) {
                    Some(i) => out.push(0x80 + i as u8),
                    None => return false,
                }
            }
        }
        Enc::Utf16(big, _) => {
            for unit in c.encode_utf16(&mut [0; 2]) {
                out.extend_from_slice(&if big { unit.to_be_bytes() } else { unit.to_le_bytes() });
            }
        }
        Enc::Utf32(big, _) => out.extend_from_slice(&if big { u.to_be_bytes() } else { u.to_le_bytes() }),
    }
    true
}

/// //TRANSLIT: an ASCII stand-in for common letters and punctuation.
fn translit(c: char) -> &'static str {
    const PAIRS: &[(&str, &str)] = &[
        ("ÀÁÂÃÄÅĀĂĄ", "A"), ("àáâãäåāăą", "a"), ("ÇĆČ", "C"), ("çćč", "c"), ("ÈÉÊËĒĘĚ", "E"), ("èéêëēęě", "e"),
        ("ÌÍÎÏĪ", "I"), ("ìíîïī", "i"), ("ÑŃŇ", "N"), ("ñńň", "n"), ("ÒÓÔÕÖØŌ", "O"), ("òóôõöøō", "o"),
        ("ÙÚÛÜŪŮ", "U"), ("ùúûüūů", "u"), ("ÝŸ", "Y"), ("ýÿ", "y"), ("ŠŚ", "S"), ("šś", "s"), ("ŽŹŻ", "Z"), ("žźż", "z"),
        ("ŁĐ", "L"), ("łđ", "l"), ("‘’‚′", "'"), ("“”„″«»", "\""), ("–—−", "-"), ("\u{a0}", " "), ("•·", "o"),
    ];
    const WORDS: &[(char, &str)] = &[('€', "EUR"), ('…', "..."), ('ß', "ss"), ('Æ', "AE"), ('æ', "ae"), ('Œ', "OE"), ('œ', "oe"), ('©', "(C)"), ('®', "(R)"), ('™', "(TM)"), ('£', "GBP"), ('¥', "JPY")];
    if let Some((_, w)) = WORDS.iter().find(|(k, _)| *k == c) {
        return w;
    }
    PAIRS.iter().find(|(set, _)| set.contains(c)).map(|(_, r)| *r).unwrap_or("?")
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.has("usage") {
        ctx.out.write_all(USAGE.as_bytes())?;
        return Ok(0);
    }
    if p.has("l") {
        // The names (and glibc's aliases) of what is built here, as glibc lists them.
        const LISTED: &[&str] = &[
            "ANSI_X3.4-1968", "ASCII", "CP1252", "CP819", "IBM819", "ISO-8859-1", "ISO-IR-100", "ISO8859-1", "ISO88591", "ISO_8859-1",
            "ISO_8859-1:1987", "L1", "LATIN1", "MS-ANSI", "US-ASCII", "US", "UTF-16", "UTF-16BE", "UTF-16LE", "UTF-32", "UTF-32BE",
            "UTF-32LE", "UTF-8", "UTF8", "WINDOWS-1252",
        ];
        for n in LISTED {
            writeln!(ctx.out, "{}//", n)?;
        }
        return Ok(0);
    }
    let from_name = p.last("f").unwrap_or("UTF-8");
    let to_full = p.last("t").unwrap_or("UTF-8");
    let mut to_name = to_full;
    let (mut translit_on, mut ignore) = (false, p.has("c"));
    while let Some(i) = to_name.rfind("//") {
        match to_name[i + 2..].to_ascii_uppercase().as_str() {
            "TRANSLIT" => translit_on = true,
            "IGNORE" => ignore = true,
            _ => {}
        }
        to_name = &to_name[..i];
    }
    let from_name = from_name.split("//").next().unwrap_or("");
    let (from, to) = (lookup(from_name), lookup(to_name));
    if from.is_none() || to.is_none() {
        let which: Vec<String> = [(from, from_name), (to, to_name)].iter().filter(|(e, _)| e.is_none()).map(|(_, n)| q(n)).collect();
        ctx.diag.error(format!("conversion {} not supported; known encodings: UTF-8, ISO-8859-1 (LATIN1), ASCII, WINDOWS-1252, UTF-16, UTF-16LE, UTF-16BE, UTF-32, UTF-32LE, UTF-32BE (iconv -l lists them)", if which.len() == 2 { format!("from {} to {}", which[0], which[1]) } else if from.is_none() { format!("from {}", which[0]) } else { format!("to {}", which[0]) }));
        return Ok(1);
    }
    let (from, to) = (from.unwrap_or(Enc::Utf8), to.unwrap_or(Enc::Utf8));
    let mut out = Vec::new();
    let mut status = 0;
    let mut bom_written = false;
    'files: for name in input::or_stdin(&p.operands) {
        let mut data = Vec::new();
        if let Err(e) = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_end(&mut data)) {
            ctx.diag.error(format!("cannot open input file `{}': {}", name, reason(&e)));
            status = 1;
            continue;
        }
        let mut big = matches!(from, Enc::Utf16(true, _) | Enc::Utf32(true, _));
        let mut pos = 0;
        match from {
            Enc::Utf16(_, true) if data.len() >= 2 => {
                if data[..2] == [0xfe, 0xff] || data[..2] == [0xff, 0xfe] {
                    big = data[0] == 0xfe;
                    pos = 2;
                }
            }
            Enc::Utf32(_, true) if data.len() >= 4 => {
                if data[..4] == [0, 0, 0xfe, 0xff] || data[..4] == [0xff, 0xfe, 0, 0] {
                    big = data[0] == 0;
                    pos = 4;
                }
            }
            _ => {}
        }
        if matches!(to, Enc::Utf16(_, true) | Enc::Utf32(_, true)) && !bom_written {
            encode(to, '\u{feff}', &mut out);
            bom_written = true;
        }
        while pos < data.len() {
            match decode(from, &data[pos..], big) {
                Ok((c, n)) => {
                    if !encode(to, c, &mut out) {
                        if translit_on {
                            for t in translit(c).chars() {
                                encode(to, t, &mut out);
                            }
                        } else if !ignore {
                            ctx.diag.error(format!("cannot convert character at position {} (U+{:04X}) to {}; add -c to drop it or //TRANSLIT to approximate", pos, c as u32, to_name));
                            status = 1;
                            break 'files;
                        }
                    }
                    pos += n;
                }
                Err(Bad::Invalid) if ignore => pos += 1,
                Err(Bad::Invalid) => {
                    ctx.diag.error(format!("illegal input sequence at position {}", pos));
                    status = 1;
                    break 'files;
                }
                Err(Bad::Incomplete) => {
                    ctx.diag.error("incomplete character or shift sequence at end of buffer");
                    status = 1;
                    break 'files;
                }
            }
        }
    }
    match p.last("o") {
        Some(f) => {
            if let Err(e) = std::fs::write(fsx::host(f), &out) {
                ctx.diag.error(format!("cannot open output file {}: {}", q(f), reason(&e)));
                return Ok(1);
            }
        }
        None => ctx.out.write_all(&out)?,
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::testutil::run;

    fn bytes(cmd_args: &[&str], input: &[u8]) -> (i32, Vec<u8>, String) {
        let args: Vec<String> = cmd_args.iter().map(|s| s.to_string()).collect();
        let mut inp = std::io::Cursor::new(input.to_vec());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let c = crate::run("iconv", &args, &mut inp, &mut out, &mut err);
        (c, out, String::from_utf8_lossy(&err).into_owned())
    }

    #[test]
    fn table() {
        let cafe = "café €\n".as_bytes();
        // (args, input, output, status) checked against glibc 2.36's iconv.
        let cases: &[(&[&str], &[u8], &[u8], i32)] = &[
            (&["-f", "UTF-8", "-t", "LATIN1"], "café\n".as_bytes(), b"caf\xe9\n", 0),
            (&["-f", "latin1", "-t", "utf-8"], b"caf\xe9\n", "café\n".as_bytes(), 0),
            (&["-f", "utf8", "-t", "windows-1252"], cafe, b"caf\xe9 \x80\n", 0),
            (&["-f", "CP1252", "-t", "UTF-8"], b"\x80\x9f", "€Ÿ".as_bytes(), 0),
            (&["-c", "-f", "UTF-8", "-t", "ASCII"], cafe, b"caf \n", 0),
            (&["-f", "UTF-8", "-t", "ASCII//TRANSLIT"], cafe, b"cafe EUR\n", 0),
            (&["-f", "UTF-8", "-t", "ASCII"], cafe, b"caf", 1),
            (&["-f", "UTF-8", "-t", "UTF-16LE"], b"a\xffb", b"a\x00", 1),
            (&["-t", "UTF-16"], b"ab", b"\xff\xfea\x00b\x00", 0),
            (&["-f", "UTF-16", "-t", "UTF-8"], b"\xfe\xff\x00a", b"a", 0),
            (&["-f", "UTF-16BE", "-t", "UTF-8"], b"\xd8\x3d\xde\x00", "😀".as_bytes(), 0),
            (&["-f", "UTF-8", "-t", "UTF-32BE"], b"A", b"\x00\x00\x00A", 0),
            (&["-f", "utf-8", "-t", "latin1"], b"ab\xc3", b"ab", 1),
        ];
        for (args, input, out, code) in cases {
            let (c, o, e) = bytes(args, input);
            assert_eq!((o.as_slice(), c), (*out, *code), "{:?} ({})", args, e);
        }
        let (c, _, e) = run("iconv", &["-f", "FOO", "-t", "UTF-8"], "");
        assert_eq!(c, 1);
        assert!(e.starts_with("iconv: conversion from 'FOO' not supported; known encodings: UTF-8"), "{}", e);
        let (_, _, e) = run("iconv", &["-f", "UTF-8", "-t", "ASCII"], "é");
        assert_eq!(e, "iconv: cannot convert character at position 0 (U+00E9) to ASCII; add -c to drop it or //TRANSLIT to approximate\n");
    }
}
