//! tr [-cdst] SET1 [SET2]  — bytes, C locale.
//!
//! SETs know ranges (a-z), escapes (\n \t \\ \NNN ...), classes
//! ([:alpha:] ...), equivalence ([=c=]) and repeats ([c*N], [c*] in SET2).

use crate::args::{flag, Spec};
use crate::ctx::{lq, q, Ctx, Res};
use std::io::Write;

const SPECS: &[Spec] = &[
    flag('c', "complement", "c"),
    flag('C', "", "c"),
    flag('d', "delete", "d"),
    flag('s', "squeeze-repeats", "s"),
    flag('t', "truncate-set1", "t"),
];
const HELP: &str = "Usage: tr [OPTION]... STRING1 [STRING2]\nTranslate, squeeze, and/or delete characters from standard input,\nwriting to standard output.\n\n  -c, -C, --complement    use the complement of STRING1\n  -d, --delete            delete characters in STRING1, do not translate\n  -s, --squeeze-repeats   replace each sequence of a repeated character\n                            that is listed in the last specified SET,\n                            with a single occurrence of that character\n  -t, --truncate-set1     first truncate STRING1 to length of STRING2\n\nSETs are specified as strings of characters: CHAR1-CHAR2, [CHAR*], [CHAR*REPEAT],\n[:alnum:] [:alpha:] [:blank:] [:cntrl:] [:digit:] [:graph:] [:lower:]\n[:print:] [:punct:] [:space:] [:upper:] [:xdigit:], [=CHAR=], and the\nescapes \\NNN \\\\ \\a \\b \\f \\n \\r \\t \\v.\n";

fn class(name: &str) -> Option<Vec<u8>> {
    let f: fn(u8) -> bool = match name {
        "alnum" => |c| c.is_ascii_alphanumeric(),
        "alpha" => |c| c.is_ascii_alphabetic(),
        "blank" => |c| c == b' ' || c == b'\t',
        "cntrl" => |c| c.is_ascii_control(),
        "digit" => |c| c.is_ascii_digit(),
        "graph" => |c| c.is_ascii_graphic(),
        "lower" => |c| c.is_ascii_lowercase(),
        "print" => |c| c.is_ascii_graphic() || c == b' ',
        "punct" => |c| c.is_ascii_punctuation(),
        "space" => |c| c.is_ascii_whitespace() || c == 0x0b,
        "upper" => |c| c.is_ascii_uppercase(),
        "xdigit" => |c| c.is_ascii_hexdigit(),
        _ => return None,
    };
    Some((0u8..=255).filter(|c| f(*c)).collect())
}

/// One parsed element of a SET.
#[derive(Debug)]
enum El {
    Bytes(Vec<u8>),
    /// [c*n]; n = 0 means "fill" (only meaningful in SET2).
    Repeat(u8, usize),
}

fn unescape(s: &[u8], i: &mut usize) -> u8 {
    // s[*i] is the byte after the backslash.
    let c = s[*i];
    *i += 1;
    match c {
        b'a' => 7,
        b'b' => 8,
        b'f' => 12,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        b'v' => 11,
        b'0'..=b'7' => {
            let mut v = (c - b'0') as u32;
            let mut n = 1;
            while n < 3 && *i < s.len() && (b'0'..=b'7').contains(&s[*i]) {
                let nv = v * 8 + (s[*i] - b'0') as u32;
                if nv > 255 {
                    break;
                }
                v = nv;
                *i += 1;
                n += 1;
            }
            v as u8
        }
        other => other,
    }
}

fn parse_set(s: &str) -> Result<Vec<El>, String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let one = |i: &mut usize| -> u8 {
        if b[*i] == b'\\' && *i + 1 < b.len() {
            *i += 1;
            unescape(b, i)
        } else {
            *i += 1;
            b[*i - 1]
        }
    };
    while i < b.len() {
        if b[i] == b'[' && i + 1 < b.len() && (b[i + 1] == b':' || b[i + 1] == b'=') {
            let kind = b[i + 1];
            if let Some(end) = s[i + 2..].find(&format!("{}]", kind as char)) {
                let name = &s[i + 2..i + 2 + end];
                if kind == b':' {
                    match class(name) {
                        Some(v) => out.push(El::Bytes(v)),
                        None => return Err(format!("invalid character class {}", lq(name))),
                    }
                } else {
                    if name.len() != 1 {
                        return Err(format!("{}: equivalence class operand must be a single character", name));
                    }
                    out.push(El::Bytes(vec![name.as_bytes()[0]]));
                }
                i += end + 4;
                continue;
            }
        }
        if b[i] == b'[' && i + 2 < b.len() {
            // [c*n] / [c*]
            let mut j = i + 1;
            let c = one(&mut j);
            if j < b.len() && b[j] == b'*' {
                if let Some(close) = s[j + 1..].find(']') {
                    let num = &s[j + 1..j + 1 + close];
                    let n = if num.is_empty() {
                        Some(0)
                    } else if num.starts_with('0') {
                        usize::from_str_radix(num, 8).ok()
                    } else {
                        num.parse().ok()
                    };
                    match n {
                        Some(n) => {
                            out.push(El::Repeat(c, n));
                            i = j + 2 + close;
                            continue;
                        }
                        None => return Err(format!("invalid repeat count {} in [c*n] construct", lq(num))),
                    }
                }
            }
        }
        let c = one(&mut i);
        if i + 1 < b.len() && b[i] == b'-' {
            let mut k = i + 1;
            let hi = one(&mut k);
            if hi < c {
                return Err(format!("range-endpoints of '{}-{}' are in reverse collating sequence order", c as char, hi as char));
            }
            out.push(El::Bytes((c..=hi).collect()));
            i = k;
        } else {
            out.push(El::Bytes(vec![c]));
        }
    }
    Ok(out)
}

fn expand(els: &[El], fill_to: Option<usize>) -> Result<Vec<u8>, String> {
    let fixed: usize = els.iter().map(|e| match e { El::Bytes(v) => v.len(), El::Repeat(_, n) => *n }).sum();
    let mut v = Vec::new();
    for e in els {
        match e {
            El::Bytes(b) => v.extend_from_slice(b),
            El::Repeat(c, 0) => {
                let n = fill_to.map(|t| t.saturating_sub(fixed)).unwrap_or(0);
                v.extend(std::iter::repeat(*c).take(n));
            }
            El::Repeat(c, n) => v.extend(std::iter::repeat(*c).take(*n)),
        }
    }
    Ok(v)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let (comp, del, squeeze, trunc) = (p.has("c"), p.has("d"), p.has("s"), p.has("t"));
    let ops = &p.operands;
    let want = if del && !squeeze { 1 } else if del || !squeeze { 2 } else { 1 };
    if ops.is_empty() {
        ctx.diag.usage("missing operand");
        return Ok(1);
    }
    if ops.len() < want {
        let why = if del && squeeze {
            "\nTwo strings must be given when both deleting and squeezing repeats."
        } else {
            "\nTwo strings must be given when translating."
        };
        ctx.diag.usage(format!("missing operand after {}{}", q(&ops[0]), why));
        return Ok(1);
    }
    if ops.len() > 2 || (ops.len() == 2 && del && !squeeze) {
        super::extra_operand(ctx, &ops[ops.len() - 1]);
        return Ok(1);
    }
    let s1 = match parse_set(&ops[0]).and_then(|e| expand(&e, None)) {
        Ok(v) => v,
        Err(m) => {
            ctx.diag.error(m);
            return Ok(1);
        }
    };
    let mut in1 = [false; 256];
    for &c in &s1 {
        in1[c as usize] = true;
    }
    if comp {
        for x in in1.iter_mut() {
            *x = !*x;
        }
    }
    // The complement's members in ascending order, for translation.
    let s1_list: Vec<u8> = if comp { (0u8..=255).filter(|c| in1[*c as usize]).collect() } else { s1.clone() };
    let s2 = match ops.get(1) {
        Some(s) => match parse_set(s).and_then(|e| expand(&e, Some(s1_list.len()))) {
            Ok(v) => Some(v),
            Err(m) => {
                ctx.diag.error(m);
                return Ok(1);
            }
        },
        None => None,
    };
    let mut map: [u8; 256] = [0; 256];
    for (i, m) in map.iter_mut().enumerate() {
        *m = i as u8;
    }
    let translating = !del && s2.is_some();
    if translating {
        let s2 = s2.as_ref().unwrap();
        if s2.is_empty() && !s1_list.is_empty() {
            ctx.diag.error("when not truncating set1, string2 must be non-empty");
            return Ok(1);
        }
        let n = if trunc { s1_list.len().min(s2.len()) } else { s1_list.len() };
        for (i, &c) in s1_list.iter().take(n).enumerate() {
            // SET2 shorter than SET1: its last byte repeats (GNU).
            map[c as usize] = *s2.get(i).unwrap_or_else(|| s2.last().unwrap());
        }
    }
    let mut sq = [false; 256];
    if squeeze {
        let set: &[u8] = if translating || (del && s2.is_some()) { s2.as_deref().unwrap_or(&[]) } else { &[] };
        if set.is_empty() && !(translating || del) {
            for c in 0..256 {
                sq[c] = in1[c];
            }
        } else {
            for &c in set {
                sq[c as usize] = true;
            }
        }
    }
    let mut last: Option<u8> = None;
    let mut obuf = Vec::with_capacity(crate::input::BUF);
    loop {
        let n = {
            let buf = ctx.stdin.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            obuf.clear();
            for &c in buf {
                if del && in1[c as usize] {
                    continue;
                }
                let o = if translating { map[c as usize] } else { c };
                if squeeze && sq[o as usize] && last == Some(o) {
                    continue;
                }
                last = Some(o);
                obuf.push(o);
            }
            ctx.out.write_all(&obuf)?;
            buf.len()
        };
        ctx.stdin.consume(n);
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err};

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&["a-z", "A-Z"], "hello, world\n", "HELLO, WORLD\n"),
            (&["[:lower:]", "[:upper:]"], "abc\n", "ABC\n"),
            (&["-d", "0-9"], "a1b22c\n", "abc\n"),
            (&["-s", " "], "a   b  c\n", "a b c\n"),
            (&["-d", "-c", "a-z\\n"], "a1-b!\n", "ab\n"),
            (&["-c", "a-z", "_"], "ab1c\n", "ab_c_"),
            (&["abc", "x"], "aabbcc", "xxxxxx"),
            (&["-t", "abc", "x"], "abc", "xbc"),
            (&["-s", "a-z", "A-Z"], "aabbcc\n", "ABC\n"),
            (&["-ds", "a", "b"], "aabbba\n", "b\n"),
            (&["\\n", " "], "a\nb\n", "a b "),
            (&["a-c", "[x*]"], "abcd", "xxxd"),
            (&["abcd", "[x*2]y"], "abcd", "xxyy"),
            (&["[:space:]", "\\n"], "a b\tc", "a\nb\nc"),
            (&["\\101", "b"], "A", "b"),
        ];
        for (args, input, out) in cases {
            check("tr", args, input, out, 0);
        }
        check_err("tr", &[], "", "tr: missing operand\nTry 'tr --help' for more information.\n", 1);
        check_err("tr", &["a"], "", "tr: missing operand after 'a'\nTwo strings must be given when translating.\nTry 'tr --help' for more information.\n", 1);
        check_err("tr", &["[:foo:]", "a"], "", "tr: invalid character class ‘foo’\n", 1);
        check_err("tr", &["z-a", "b"], "", "tr: range-endpoints of 'z-a' are in reverse collating sequence order\n", 1);
    }
}
